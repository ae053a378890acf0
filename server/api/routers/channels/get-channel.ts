import { getChannel as get } from "../../../channels/list-channels.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { getChannelMeta, ZGetChannelRequest, ZGetChannelResponse } from "./get-channel.types.ts";

// D93: GET /channels/{id}, with an e-mail channel's reputation.
export const getChannel = workspaceProcedure
  .meta(getChannelMeta)
  .input(ZGetChannelRequest)
  .output(ZGetChannelResponse)
  .query(({ ctx, input }) => get(ctx.db, ctx.caller.workspaceId, input.id));
