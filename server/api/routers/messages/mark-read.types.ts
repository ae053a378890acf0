import { z } from "zod";
import { ZMarkRead } from "../../../messaging/mark-read.ts";
import type { Meta } from "../../trpc.ts";

export const markReadMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/messages/{id}/read",
    tags: ["Messages"],
    summary: "Mark a received message read",
    description:
      "Marks an inbound WhatsApp message read: the sender sees the blue ticks. With `typing: true` the sender also sees " +
      "the typing indicator, until you reply or for up to 25 seconds. The answer's `read_at` is when the message was first " +
      "marked read, the same on every later call. A message you sent, or an e-mail, answers `409` `not_inbound`.",
    protect: true,
  },
  scope: "messages:write",
  errors: ["not_inbound", "read_not_sent"],
};

export const ZMarkReadRequest = z.strictObject({
  id: z.string().describe("Prefix `msg_`."),
  typing: z.boolean().optional().describe("Also show the typing indicator. Default false."),
});
export { ZMarkRead as ZMarkReadResponse };
