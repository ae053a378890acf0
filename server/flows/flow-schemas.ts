import { parse as parseDuration, type Duration } from "tinyduration";
import { z } from "zod";
import { ZEventCondition, ZEventName, ZPropertyPath, type EventCondition } from "../contact-events/conditions.ts";
import { ZQuietHours } from "../lib/time-zones.ts";
import { ZCaps } from "../messaging/frequency-caps.ts";
import { perChannel, type ChannelModules } from "../channels/registry.ts";
import type { ChannelType } from "../channels/channel.ts";
import { CHANNELS, checkContent, ZSingleRecipient, ZVariables } from "../messaging/message-schemas.ts";

// The flow document of D37: the one format of the dashboard editor, its import and export, the
// operator CLI and the tRPC API. Zod checks the shape (with the dotted path of each fault);
// `check-definition.ts` checks what refers to the workspace (tags, fields, channels).

export const FLOW_STATUSES = ["draft", "active", "paused", "archived"] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];
export const RUN_STATUSES = ["active", "completed", "stopped", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const ZId = z.string().trim().min(1).max(64);

/** D70: a step's id, unique in its document; the service assigns one to a step without. */
const ZStepId = z.string().trim().min(1).max(64, "must be at most 64 characters");

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

/** The end of an ISO 8601 duration from `from` (calendar months and years on the UTC calendar). */
export function addDuration(duration: string, from: Date): Date {
  const d: Duration = parseDuration(duration);
  const end = new Date(from);
  end.setUTCFullYear(
    end.getUTCFullYear() + (d.years ?? 0),
    end.getUTCMonth() + (d.months ?? 0),
    end.getUTCDate() + (d.weeks ?? 0) * 7 + (d.days ?? 0),
  );
  return new Date(end.getTime() + ((d.hours ?? 0) * 3600 + (d.minutes ?? 0) * 60 + (d.seconds ?? 0)) * 1000);
}

const DAY_MS = 86_400_000;

/** A duration of at most `days` (D63: a timeout of 90 days, a lookback of 7), measured from now. */
const ZDurationUpTo = (days: number) =>
  ZDuration.refine((text) => {
    const now = new Date();
    return addDuration(text, now).getTime() - now.getTime() <= days * DAY_MS;
  }, `must be at most ${days} days`);

/** D63, D64: a `match` of property paths to texts (placeholders allowed), compared as text. */
const ZMatch = z.record(ZPropertyPath, z.string().max(500)).refine((m) => Object.keys(m).length <= 20, "at most 20 entries");

/** D63: what a `wait_for` on a message waits for, of the message sent by the run's latest `send` step. */
export const MESSAGE_OUTCOMES = ["delivered", "read", "replied", "failed"] as const;
export type MessageOutcome = (typeof MESSAGE_OUTCOMES)[number];

/** A send step's content objects, one a channel: each its module's `stepContent` (D37). */
const STEP_CONTENT_SHAPE = perChannel((channel) => channel.stepContent.optional()) as {
  [K in ChannelType]: z.ZodOptional<ChannelModules[K]["stepContent"]>;
};

const ZSendStep = z
  .object({
    type: z.literal("send"),
    id: ZStepId.optional(),
    channel: z.enum(CHANNELS),
    channel_id: ZId.optional(),
    ...STEP_CONTENT_SHAPE,
  })
  .strict()
  .superRefine(checkContent);

const ZWaitStep = z
  .object({
    type: z.literal("wait"),
    id: ZStepId.optional(),
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
  .object({
    type: z.literal("tag"),
    id: ZStepId.optional(),
    add: z.array(ZId).max(100).optional(),
    remove: z.array(ZId).max(100).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.add?.length && !v.remove?.length) ctx.addIssue({ code: "custom", path: ["add"], message: "give tag ids to add or remove" });
  });

const ZSetFieldStep = z
  .object({
    type: z.literal("set_field"),
    id: ZStepId.optional(),
    key: ZId,
    value: z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]),
  })
  .strict();

const ZExitStep = z.object({ type: z.literal("exit"), id: ZStepId.optional() }).strict();

export type SendStep = z.infer<typeof ZSendStep>;
export type WaitStep = z.infer<typeof ZWaitStep>;
export type TagStep = z.infer<typeof ZTagStep>;
export type SetFieldStep = z.infer<typeof ZSetFieldStep>;
export type BranchStep = { type: "branch"; id?: string; if: Condition; then: Step[]; else: Step[] };
export type WaitForStep = {
  type: "wait_for";
  id?: string;
  event?: string;
  match?: Record<string, string>;
  message?: MessageOutcome;
  timeout: string;
  lookback?: string;
  on_event: Step[];
  on_timeout: Step[];
};
/** D68: a random split; each contact takes one path, by a hash (split-path.ts). */
export type SplitStep = { type: "split"; id?: string; paths: { weight: number; steps: Step[] }[] };
export type Step = SendStep | WaitStep | BranchStep | WaitForStep | SplitStep | TagStep | SetFieldStep | { type: "exit"; id?: string };

/** D68: 2 to 5 paths, each a positive whole weight and its steps. */
const ZSplitStep: z.ZodType<SplitStep> = z.lazy(() =>
  z
    .object({
      type: z.literal("split"),
      id: ZStepId.optional(),
      paths: z
        .array(
          z.strictObject({
            weight: z.number().int("must be a whole number").min(1, "must be a positive whole number").max(1_000_000),
            steps: z.array(ZStep).max(100).default([]),
          }),
        )
        .min(2, "a split needs 2 to 5 paths")
        .max(5, "a split needs 2 to 5 paths"),
    })
    .strict(),
) as unknown as z.ZodType<SplitStep>;

const ZBranchStep: z.ZodType<BranchStep> = z.lazy(() =>
  z
    .object({
      type: z.literal("branch"),
      id: ZStepId.optional(),
      if: ZCondition,
      then: z.array(ZStep).max(100).default([]),
      else: z.array(ZStep).max(100).default([]),
    })
    .strict(),
) as unknown as z.ZodType<BranchStep>;

/**
 * D63: waits for an event of the contact (`event`, with `match` and `lookback`) or for an
 * outcome of the run's latest message (`message`), at most `timeout`; then `on_event` or
 * `on_timeout`, then the steps after it.
 */
const ZWaitForStep: z.ZodType<WaitForStep> = z.lazy(() =>
  z
    .object({
      type: z.literal("wait_for"),
      id: ZStepId.optional(),
      event: ZEventName.optional(),
      match: ZMatch.optional(),
      message: z.enum(MESSAGE_OUTCOMES).optional(),
      timeout: ZDurationUpTo(90),
      lookback: ZDurationUpTo(7).optional(),
      on_event: z.array(ZStep).max(100).default([]),
      on_timeout: z.array(ZStep).max(100).default([]),
    })
    .strict()
    .superRefine((v, ctx) => {
      if ((v.event === undefined) === (v.message === undefined)) {
        ctx.addIssue({ code: "custom", path: ["event"], message: "give exactly one of event or message" });
      }
      if (v.message !== undefined && v.match !== undefined) {
        ctx.addIssue({ code: "custom", path: ["match"], message: "match applies to an event wait only" });
      }
      if (v.message !== undefined && v.lookback !== undefined) {
        ctx.addIssue({ code: "custom", path: ["lookback"], message: "lookback applies to an event wait only" });
      }
    }),
) as unknown as z.ZodType<WaitForStep>;

/** One step, told apart by its `type`, so that a fault's path points inside the right step. */
export const ZStep: z.ZodType<Step> = z.lazy(() =>
  z.discriminatedUnion("type", [
    ZSendStep,
    ZWaitStep,
    ZBranchStep as never,
    ZWaitForStep as never,
    ZSplitStep as never,
    ZTagStep,
    ZSetFieldStep,
    ZExitStep,
  ]),
) as unknown as z.ZodType<Step>;

/** D62: the event that enrolls contacts, with conditions on its properties and the run's key. */
export const ZTrigger = z
  .object({ event: ZEventName, where: ZEventCondition.optional(), key: z.string().trim().min(1).max(500).optional() })
  .strict();
export type Trigger = { event: string; where?: EventCondition; key?: string };

/** D64: the event that counts as a conversion, and whether reaching it ends the run. */
export const ZGoal = z.object({ event: ZEventName, match: ZMatch.optional(), exit: z.boolean().default(true) }).strict();
export type Goal = z.output<typeof ZGoal>;

/** D70: what saving a new version does to the flow's active runs (`keep` when absent). */
export const MIGRATE = ["keep", "move"] as const;
export type Migrate = (typeof MIGRATE)[number];

export const ZFlowDefinition = z
  .object({
    name: z.string().trim().min(1).max(200),
    migrate: z.enum(MIGRATE).optional(),
    status: z.enum(FLOW_STATUSES).optional(),
    allow_reentry: z.boolean().default(false),
    trigger: ZTrigger.optional(),
    goal: ZGoal.optional(),
    quiet_hours: ZQuietHours.optional(),
    caps: ZCaps.optional(),
    steps: z.array(ZStep).min(1, "a flow needs at least one step").max(200),
  })
  .strict(); // D70: unique step ids are checked by checkDefinition (step-path.ts walks the steps)

export type FlowDefinitionInput = z.input<typeof ZFlowDefinition>;
export type FlowDefinition = z.output<typeof ZFlowDefinition>;

/** D66: a run's key. */
const ZRunKey = z.string().min(1).max(128, "must be at most 128 characters");

export const ZEnrollRequest = z.strictObject({
  to: ZSingleRecipient,
  variables: ZVariables.optional(),
  key: ZRunKey.optional()
    .describe("The run's key: a contact may have one active run per key in a flow. At most 128 characters.")
    .meta({ example: "inv_2026_0042" }),
});

/** Either `to` or `key` or both: the service refuses neither (`parameter_missing`, `to`). */
export const ZUnenrollRequest = z.strictObject({
  to: ZEnrollRequest.shape.to.optional(),
  key: ZRunKey.optional()
    .describe("Only runs with this key stop; without `to`, those of every contact in the flow.")
    .meta({ example: "inv_2026_0042" }),
  reason: z.string().trim().max(500).optional().meta({ example: "Paid in the shop" }),
});
