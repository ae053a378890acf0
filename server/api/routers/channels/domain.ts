import { z } from "zod";
import { channelDomain, checkChannelDomain, ZChannelDomain, ZChannelDomainCheck } from "../../../channels/email/domain.ts";
import { workspaceProcedure, type Meta } from "../../trpc.ts";

// D74: an e-mail channel's domain section in the dashboard; D92: its check, which is also
// `POST /channels/{id}/dns-check` ("Check now"). Reads; the check makes a few bounded DNS lookups.

const ZInput = z.object({ channel_id: z.string().min(1).max(64) });

/** The records to publish, without lookups. */
export const domain = workspaceProcedure
  .input(ZInput)
  .output(ZChannelDomain)
  .query(({ ctx, input }) => channelDomain(ctx.db, ctx.caller.workspaceId, input.channel_id));

export const dnsCheckMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/channels/{id}/dns-check",
    tags: ["Channels"],
    summary: "Check an e-mail channel's DNS",
    description:
      "Looks up, now, each DNS record the e-mail channel's domain should publish (DKIM, SPF, DMARC, and the bounce domain's MX). " +
      "Each record's `status` is `verified`, `mismatch` (`found` holds what DNS answered), `missing`, or `lookup_failed` " +
      "(the DNS server did not answer: nothing is known of the record, and it is never reported as missing). `dmarc.aligned` " +
      "says whether the From domain aligns with the DKIM signature's domain or the SPF domain; `ready` is true only when " +
      "DKIM is verified, SPF passes, and DMARC is published and aligned, as Gmail, Yahoo and Microsoft require of bulk senders.",
    protect: true,
  },
  scope: "channels:read",
};

/** The records, each checked with DNS now, and the verdict; admins and support alike. */
export const dnsCheck = workspaceProcedure
  .meta({ ...dnsCheckMeta, roles: ["admin", "support"] })
  .input(z.strictObject({ id: z.string().min(1).max(64).describe("Prefix `ch_`; an e-mail channel.") }))
  .output(ZChannelDomainCheck)
  .mutation(({ ctx, input }) => checkChannelDomain(ctx.db, ctx.caller.workspaceId, input.id, "id"));
