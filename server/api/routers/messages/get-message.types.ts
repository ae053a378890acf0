import { z } from "zod";
import { ZMessage } from "../../../messaging/message-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const getMessageMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/messages/{id}",
    tags: ["Messages"],
    summary: "Get a message",
    description: "A message is visible to keys of the mode that sent it.",
    protect: true,
  },
  scope: "messages:read",
};

export const ZGetMessageRequest = z.object({ id: z.string().describe("Prefix `msg_`.") });
export { ZMessage as ZGetMessageResponse };
