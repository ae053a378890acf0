import { z } from "zod";
import { MIGRATE, ZFlowDefinition } from "../../../flows/flow-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const previewEditMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/flows/{flow_id}/preview",
    tags: ["Flows"],
    summary: "Preview an edit of a flow",
    description:
      "Takes the flow document a save would take, with `migrate` (`keep`, the default, or `move`), and changes nothing. Answers " +
      "how many active runs the save would keep on their version, move to the new one, or complete because their step is gone, " +
      "and for the first 1,000 active runs (oldest first) the step each is in and its next action under the old and the new " +
      "version: the step, `send`, `wait_for` or `complete`, when, and the rendered text (or subject) of a message; a `wait_for` " +
      "also says what it waits for and when it times out. An invalid " +
      "document is refused with the `param` a save would give.",
    protect: true,
  },
  scope: "flows:read",
};

// What each member is, for the OpenAPI document and the clients generated from it; the value
// itself is checked by the service, which names the fault's path in the document.
const STEP_TYPE = {
  type: "object",
  properties: { id: { type: "string" }, type: { type: "string" } },
  required: ["type"],
  additionalProperties: true,
};
const MEMBER_TYPES: Record<string, Record<string, unknown>> = {
  name: { type: "string", example: "Welcome" },
  status: { type: "string", enum: ["draft", "active", "paused", "archived"], example: "active" },
  allow_reentry: { type: "boolean", example: false },
  trigger: { type: "object", additionalProperties: true, example: { event: "signed_up" } },
  goal: { type: "object", additionalProperties: true, example: { event: "order_paid" } },
  quiet_hours: { type: "object", additionalProperties: true, example: { start: "21:00", end: "08:00" } },
  caps: { type: "object", additionalProperties: true, example: { whatsapp: { count: 3, period: "P1D" } } },
  steps: {
    type: "array",
    items: STEP_TYPE,
    example: [{ id: "hello", type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}!" } }],
  },
};

// The document's members as a save takes them; the services check them (D37), so a fault is
// answered with its path in the document (`steps.2.whatsapp.body`). POST and PUT /flows take them too.
export const documentMembers = Object.fromEntries(
  Object.keys(ZFlowDefinition.shape).map((key) => [
    key,
    key === "migrate"
      ? z.enum(MIGRATE).optional().describe("`keep` (the default): runs finish on their version; `move`: runs continue on the new one.")
      : key === "name" || key === "steps"
        ? z.unknown().meta(MEMBER_TYPES[key]!)
        : z
            .unknown()
            .optional()
            .meta(MEMBER_TYPES[key] ?? {}),
  ]),
) as Record<string, z.ZodType>;

export const ZPreviewEditRequest = z.strictObject({ flow_id: z.string().max(64).describe("Prefix `flow_`."), ...documentMembers }).meta({
  example: {
    name: "Welcome",
    status: "active",
    migrate: "move",
    steps: [{ id: "hello", type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}!" } }],
  },
});

const ZNext = z.object({
  step: z.string().nullable().describe("The id of the step that acts; null at the end."),
  action: z.enum(["send", "wait_for", "complete"]),
  at: z.string().nullable(),
  text: z.string().nullable().describe("The rendered text (or e-mail subject) the send would carry."),
  for: z
    .string()
    .optional()
    .describe("`wait_for` only: what it waits for, the event's name or the outcome of the run's latest message (`replied`, …)."),
  until: z
    .string()
    .optional()
    .describe("`wait_for` only: when the wait times out at the latest (for a run already waiting in it, `at` too)."),
});

export const ZPreviewEditResponse = z
  .object({
    counts: z.object({ runs: z.number().int(), moved: z.number().int(), kept: z.number().int(), completed: z.number().int() }),
    runs: z.array(
      z.object({
        run_id: z.string(),
        contact_id: z.string(),
        current: z.object({ id: z.string(), path: z.string() }).nullable(),
        next: z.object({ old: ZNext, new: ZNext }),
      }),
    ),
  })
  .meta({ id: "FlowPreview" });
