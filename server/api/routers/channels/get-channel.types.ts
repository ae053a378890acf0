import { z } from "zod";
import { ZChannel } from "../../../channels/channel-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const getChannelMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/channels/{id}",
    tags: ["Channels"],
    summary: "Get a channel",
    description:
      "A channel of the workspace, connected or not. Credentials are never returned: `secrets_set` names the ones stored. " +
      "`status` says whether it is paused and `paused_reason` why; an e-mail channel carries its `reputation` over the last 7 days.",
    protect: true,
  },
  scope: "channels:read",
};

export const ZGetChannelRequest = z.object({ id: z.string().max(64).describe("Prefix `ch_`.") });
export { ZChannel as ZGetChannelResponse };
