import { z } from "zod";
import { ZChannel } from "../../../channels/channel-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const listChannelsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/channels",
    tags: ["Channels"],
    summary: "List channels",
    description:
      "The workspace's connected channels, oldest first. Credentials are never returned: `secrets_set` names the ones stored. " +
      "Channels are connected and disconnected in the dashboard.",
    protect: true,
  },
  scope: "channels:read",
};

export const ZListChannelsRequest = z.strictObject({});
export const ZListChannelsResponse = z.array(ZChannel);
