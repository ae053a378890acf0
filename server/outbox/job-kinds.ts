import { z } from "zod";

// The outbox's job kinds (issue 11): one schema per kind for its `payload`. Every write of a
// payload (enqueue, either path; a handler rescheduling its job with a new payload) is checked
// against its kind's schema, and the pipeline parses it again when it runs the job, so a
// handler reads a typed payload. The outbox sits below the domains, so the few domain values
// a payload holds are spelled here and the domains take their types from here.

/** A test message's simulated end state (D35). */
export const SIMULATED_OUTCOMES = ["read", "delivered", "sent", "failed", "bounced"] as const;

/** A step's position in a flow: indexes, and the list entered (a branch's `then`/`else`, a `wait_for`'s paths). */
const ZStepPath = z.array(z.union([z.number().int().nonnegative(), z.enum(["then", "else", "on_event", "on_timeout"])]));

/**
 * Why a `flow.step` job came before its run's due time: an event a `wait_for` waits for (D63),
 * an outcome of the message it waits for, or an event that may reach the flow's goal (D64).
 * The run engine checks each against the run as it is when it holds it.
 */
const ZWake = z.discriminatedUnion("by", [
  z.strictObject({ by: z.literal("event"), event_id: z.string().min(1) }),
  z.strictObject({ by: z.literal("message"), message_id: z.string().min(1), status: z.string().min(1) }),
  z.strictObject({ by: z.literal("goal"), event_id: z.string().min(1) }),
]);

export const JOB_KINDS = {
  /** A live message through its channel's provider; the message is the job's subject. */
  "message.dispatch": z.strictObject({}),
  /**
   * A live message (the subject) whose provider call got no answer (D47): unless the provider's
   * report has moved it meanwhile, it fails as `provider_timeout`, with the call's `error`.
   */
  "message.settle": z.strictObject({ error: z.string().min(1) }),
  /** The next step of a test message's simulated life. */
  "message.simulate": z.strictObject({ outcome: z.enum(SIMULATED_OUTCOMES), step: z.number().int().nonnegative() }),
  /** One webhook delivery (the subject) to its endpoint; the endpoint paces the pipeline's slots. */
  "webhook.deliver": z.strictObject({ endpoint_id: z.string().min(1) }),
  /** A flow run (the subject) from `position`; null once a last-step wait is over. */
  "flow.step": z.strictObject({ position: ZStepPath.nullable(), wake: ZWake.optional() }),
  /** A contact event (the subject, D61) that a trigger, a waiting run or a goal listens for. */
  "contact_event.process": z.strictObject({}),
  "maintenance.sweep": z.strictObject({}),
  /** A WhatsApp channel's (the subject's) periodic template sync. */
  "whatsapp.templates_sync": z.strictObject({}),
} as const;

export type JobKind = keyof typeof JOB_KINDS;
export type JobPayload<K extends JobKind> = z.output<(typeof JOB_KINDS)[K]>;

export function isJobKind(kind: string): kind is JobKind {
  return Object.hasOwn(JOB_KINDS, kind);
}

/** A payload that does not match its kind's schema (or a kind the outbox does not know). */
export class JobPayloadError extends Error {
  override name = "JobPayloadError";
}

/** The payload parsed by its kind's schema; a `JobPayloadError` that says what is wrong otherwise. */
export function parsePayload<K extends JobKind>(kind: K, payload: unknown): JobPayload<K>;
export function parsePayload(kind: string, payload: unknown): JobPayload<JobKind>;
export function parsePayload(kind: string, payload: unknown): JobPayload<JobKind> {
  if (!isJobKind(kind)) throw new JobPayloadError(`unknown job kind ${JSON.stringify(kind)}`);
  const parsed = JOB_KINDS[kind].safeParse(payload);
  if (!parsed.success) throw new JobPayloadError(`${kind} payload: ${z.prettifyError(parsed.error).replaceAll("\n", " ")}`);
  return parsed.data;
}
