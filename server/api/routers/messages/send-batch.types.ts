import { z } from "zod";
import { BATCH_MAX } from "../../../messaging/send-batch.ts";
import { ZMessage } from "../../../messaging/message-schemas.ts";
import type { Meta } from "../../trpc.ts";
import { SEND_ERRORS } from "./send-message.types.ts";

/** D86: a batch's body may be this large (D26's 256 KiB holds for every other request). */
export const BATCH_MAX_BODY_BYTES = 5 * 1024 * 1024;

export const sendBatchMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/messages/batch",
    tags: ["Messages"],
    summary: "Send a batch of messages",
    description:
      `Sends 1 to ${BATCH_MAX.toLocaleString("en")} messages of either channel in one request (a body of up to 5 MiB). ` +
      "Each item is a `POST /messages` body, checked the same way, and answered in the same place of `data`: " +
      'the message (`queued`), or `{ "error": { … } }` whose `param` starts with `messages.<index>.`. ' +
      "Valid items are accepted even when others are not. The daily and monthly limits of live keys are counted in the items' order: " +
      "the items that no longer fit answer `quota_exceeded`. One `Idempotency-Key` covers the whole batch.",
    protect: true,
  },
  scope: "messages:send",
  idempotent: true,
  maxBodyBytes: BATCH_MAX_BODY_BYTES,
  errors: SEND_ERRORS,
};

export const ZSendBatchRequest = z
  .strictObject({
    messages: z
      .array(z.unknown())
      .min(1, "must hold at least 1 message")
      .max(BATCH_MAX, `must hold at most ${BATCH_MAX} messages`)
      .describe(`1 to ${BATCH_MAX} messages, each a \`POST /messages\` body.`)
      .meta({ override: ({ jsonSchema }) => void (jsonSchema.items = { $ref: "#/components/schemas/SendMessageRequest" }) }),
  })
  .meta({
    examples: [
      {
        messages: [
          {
            channel: "whatsapp",
            to: { phone: "+5511987654321" },
            whatsapp: { body: "Your order {{order}} shipped." },
            variables: { order: "1042" },
          },
          {
            channel: "email",
            to: { email: "ana@example.com" },
            email: { subject: "Your order shipped", html: "<p>It is on its way.</p>" },
          },
        ],
      },
    ],
  });

const ZItemError = z
  .object({
    error: z.object({
      type: z.string(),
      code: z.string(),
      message: z.string(),
      param: z.string().nullable().describe("Starts with `messages.<index>`."),
      doc_url: z.string(),
    }),
  })
  .meta({ id: "BatchItemError" });

export const ZSendBatchResponse = z.object({
  data: z.array(z.union([ZMessage, ZItemError])).describe("One item per message sent, in the same order: the message, or its error."),
});
