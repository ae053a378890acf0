import { z } from "zod";
import { listChannels as list } from "../../../channels/list-channels.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { listChannelsMeta, ZListChannelsRequest, ZListChannelsResponse } from "./list-channels.types.ts";

// Secret values are never returned (channelView): only the names of those stored.

/** The dashboard's list, with the disconnected channels when asked. */
export const listChannels = workspaceProcedure
  .input(z.object({ include_disconnected: z.boolean().optional() }).optional())
  .query(({ ctx, input }) => list(ctx.db, ctx.caller.workspaceId, { includeDisconnected: input?.include_disconnected }));

/** D92: GET /channels, the connected channels. */
export const listConnectedChannels = workspaceProcedure
  .meta(listChannelsMeta)
  .input(ZListChannelsRequest)
  .output(ZListChannelsResponse)
  .query(({ ctx }) => list(ctx.db, ctx.caller.workspaceId));
