import { z } from "zod";
import { channelDomain, checkChannelDomain, ZChannelDomain, ZChannelDomainCheck } from "../../../channels/email-domain.ts";
import { workspaceProcedure } from "../../trpc.ts";

// D74: an e-mail channel's domain section in the dashboard (no `meta.openapi`, as the other
// channel procedures). Both are reads; the check makes a few bounded DNS lookups.

const ZInput = z.object({ channel_id: z.string().min(1).max(64) });

/** The records to publish, without lookups. */
export const domain = workspaceProcedure
  .input(ZInput)
  .output(ZChannelDomain)
  .query(({ ctx, input }) => channelDomain(ctx.db, ctx.caller.workspaceId, input.channel_id));

/** The records, each checked with DNS now ("Check now"); admins and support alike. */
export const checkDomain = workspaceProcedure
  .meta({ roles: ["admin", "support"] })
  .input(ZInput)
  .output(ZChannelDomainCheck)
  .mutation(({ ctx, input }) => checkChannelDomain(ctx.db, ctx.caller.workspaceId, input.channel_id));
