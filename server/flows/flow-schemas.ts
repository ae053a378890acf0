import { parse as parseDuration } from "tinyduration";
import { z } from "zod";
import { CHANNELS, checkContent, ZEmailContent, ZSingleRecipient, ZVariables, ZWhatsAppContent } from "../messaging/message-schemas.ts";

// The flow document of D37: the one format of the dashboard editor, its import and export, the
// operator CLI and the tRPC API. Zod checks the shape (with the dotted path of each fault);
// `check-definition.ts` checks what refers to the workspace (tags, fields, channels).

export const FLOW_STATUSES = ["draft", "active", "paused", "archived"] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];
export const RUN_STATUSES = ["active", "completed", "stopped", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const ZId = z.string().trim().min(1).max(64);

/** An ISO 8601 duration (`PT1H`, `P2D`, `P1M`), as tinyduration reads it. */
export const ZDuration = z
  .string()
  .max(64)
  .refine((text) => {
    try {
      parseDuration(text);
      return true;
    } catch {
      return false;
    }
  }, "must be an ISO 8601 duration such as PT1H or P2D");

/**
 * A send step's WhatsApp content: the message's (D42), plus D43's fallback: with both
 * free-form content and a template, `"fallback": "template"` sends the free-form content
 * inside the contact's 24-hour window and the template outside it.
 */
export const ZStepWhatsAppContent = ZWhatsAppContent.extend({ fallback: z.literal("template").optional() });

const ZSendStep = z
  .object({
    type: z.literal("send"),
    channel: z.enum(CHANNELS),
    channel_id: ZId.optional(),
    whatsapp: ZStepWhatsAppContent.optional(),
    email: ZEmailContent.optional(),
  })
  .strict()
  .superRefine(checkContent);

const ZWaitStep = z
  .object({
    type: z.literal("wait"),
    duration: ZDuration.optional(),
    until: z.iso.datetime({ offset: true }).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.duration === undefined) === (v.until === undefined)) {
      ctx.addIssue({ code: "custom", path: ["duration"], message: "give exactly one of duration or until" });
    }
  });

const ZCondition = z.union([
  z.object({ has_tag: ZId }).strict(),
  z.object({ field: ZId, equals: z.union([z.string().max(10_000), z.number(), z.boolean()]) }).strict(),
  z.object({ field: ZId, exists: z.literal(true) }).strict(),
  z.object({ opted_out: z.enum(CHANNELS) }).strict(),
]);
export type Condition = z.infer<typeof ZCondition>;

const ZTagStep = z
  .object({ type: z.literal("tag"), add: z.array(ZId).max(100).optional(), remove: z.array(ZId).max(100).optional() })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.add?.length && !v.remove?.length) ctx.addIssue({ code: "custom", path: ["add"], message: "give tag ids to add or remove" });
  });

const ZSetFieldStep = z
  .object({
    type: z.literal("set_field"),
    key: ZId,
    value: z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]),
  })
  .strict();

const ZExitStep = z.object({ type: z.literal("exit") }).strict();

export type SendStep = z.infer<typeof ZSendStep>;
export type WaitStep = z.infer<typeof ZWaitStep>;
export type TagStep = z.infer<typeof ZTagStep>;
export type SetFieldStep = z.infer<typeof ZSetFieldStep>;
export type BranchStep = { type: "branch"; if: Condition; then: Step[]; else: Step[] };
export type Step = SendStep | WaitStep | BranchStep | TagStep | SetFieldStep | { type: "exit" };

const ZBranchStep: z.ZodType<BranchStep> = z.lazy(() =>
  z
    .object({
      type: z.literal("branch"),
      if: ZCondition,
      then: z.array(ZStep).max(100).default([]),
      else: z.array(ZStep).max(100).default([]),
    })
    .strict(),
) as unknown as z.ZodType<BranchStep>;

/** One step, told apart by its `type`, so that a fault's path points inside the right step. */
export const ZStep: z.ZodType<Step> = z.lazy(() =>
  z.discriminatedUnion("type", [ZSendStep, ZWaitStep, ZBranchStep as never, ZTagStep, ZSetFieldStep, ZExitStep]),
) as unknown as z.ZodType<Step>;

export const ZFlowDefinition = z
  .object({
    name: z.string().trim().min(1).max(200),
    status: z.enum(FLOW_STATUSES).optional(),
    allow_reentry: z.boolean().default(false),
    steps: z.array(ZStep).min(1, "a flow needs at least one step").max(200),
  })
  .strict();

export type FlowDefinitionInput = z.input<typeof ZFlowDefinition>;
export type FlowDefinition = z.output<typeof ZFlowDefinition>;

export const ZEnrollRequest = z.strictObject({
  to: ZSingleRecipient,
  variables: ZVariables.optional(),
});

export const ZUnenrollRequest = z.strictObject({
  to: ZEnrollRequest.shape.to,
  reason: z.string().trim().max(500).optional(),
});
