import { ZConnectChannelRequest } from "../../../channels/channel-schemas.ts";
import { connectChannel as connect } from "../../../channels/connect-channel.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Admins only; an e-mail channel's events token is in this response and nowhere else. */
export const connectChannel = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZConnectChannelRequest)
  .mutation(({ ctx, input }) => connect(ctx.db, ctx.caller.workspaceId, input, ctx.caller));
