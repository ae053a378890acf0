import { CHANNELS } from "../messaging/message-schemas.ts";
import type { ChannelType } from "../generated/prisma/enums.ts";
import { z } from "zod";
import type { Step } from "./flow-schemas.ts";
import { stepAt, stepParam, type Path } from "./step-path.ts";
import { SKIP_REASONS, skipReason } from "../messaging/why-not.ts";

// D82: a run as the API reads it, and its history in the vocabulary of D81 and D82. The
// history table keeps what the run engine wrote (the dashboard reads it as such); this module
// says it in the public terms.

export const ZRunStep = z
  .object({
    id: z.string().nullable().describe("The step's `id` in the flow document; null when it has none."),
    path: z.string().describe("The step's position in the document, such as `steps.2.then.0`."),
  })
  .meta({ id: "RunStep" });

export const ZRunHistoryEntry = z
  .object({
    at: z.string(),
    step: z.string().nullable().describe("The step's position (`steps.2`), or null for the run as a whole."),
    kind: z.enum(["entered", "sent", "skipped", "held_quiet_hours", "waiting", "woke", "path", "converted", "moved", "ended"]),
    version: z.number().int().optional().describe("`entered`, `moved`: the flow version the run follows from then on."),
    from_version: z.number().int().optional().describe("`moved`: the version the run left when the flow was edited."),
    event_id: z.string().optional().describe("`entered` by a trigger, `woke` by an event, `converted`: the event (prefix `cev_`)."),
    message_id: z.string().optional().describe("`sent`, or `woke` by a message: the message."),
    channel: z.enum(CHANNELS).optional().describe("`sent`, `skipped`: the step's channel."),
    reason: z
      .string()
      .optional()
      .describe("`skipped`: one of " + SKIP_REASONS.join(", ") + ". `ended`: why the run ended."),
    message: z.string().optional().describe("`skipped`, `ended` as `failed`: the reason in words."),
    for: z.string().optional().describe("`waiting`: a duration, a time, an event name or a message outcome."),
    until: z
      .string()
      .optional()
      .describe("`waiting`: when the wait ends at the latest. `held_quiet_hours`: when the quiet hours end and the send runs."),
    time_zone: z.string().optional().describe("`held_quiet_hours`: the contact's time zone the quiet hours were read in."),
    by: z.enum(["event", "message", "timeout"]).optional().describe("`woke`: what ended the wait."),
    status: z.string().optional().describe("`woke` by a message: its status (`replied` for a reply). `ended`: the run's status."),
    path: z
      .string()
      .optional()
      .describe(
        "`path`: the branch, wait_for or split path taken: `then`, `else`, `on_event`, `on_timeout`, or `paths.<index>` of a split.",
      ),
    index: z.number().int().optional().describe("`path` of a split: the index of the path taken, from 0."),
  })
  .meta({ id: "RunHistoryEntry" });
export type RunHistoryEntry = z.infer<typeof ZRunHistoryEntry>;

const RUN_EXAMPLE = {
  id: "run_0mwz2A3s4D5f6G7h8J9k0L",
  flow_id: "flow_0mwq2b8Xk1Lr4Yd7Qe9Tz3",
  contact_id: "ct_0mwq18yo3jJFvnIzUvqf4q",
  status: "active",
  key: "inv_2026_0042",
  version: 1,
  current_step: { id: null, path: "steps.1" },
  converted_at: null,
  created_at: "2026-11-27T10:00:00.000Z",
  ended_at: null,
};

export const ZRun = z
  .object({
    id: z.string().describe("Prefix `run_`."),
    flow_id: z.string(),
    contact_id: z.string(),
    status: z.enum(["active", "completed", "stopped", "failed"]),
    key: z.string().nullable(),
    version: z.number().int().describe("The flow version the run follows."),
    current_step: ZRunStep.nullable().describe("The step the run is at or waits in; null once it has ended."),
    converted_at: z.string().nullable().describe("When the flow's goal was reached; null until then."),
    created_at: z.string(),
    ended_at: z.string().nullable(),
  })
  .meta({ id: "Run", example: RUN_EXAMPLE });

export const ZRunWithHistory = ZRun.extend({
  history: z.array(ZRunHistoryEntry).describe("What the run did, oldest first."),
}).meta({
  id: "RunWithHistory",
  example: {
    ...RUN_EXAMPLE,
    history: [
      { at: "2026-11-27T10:00:00.000Z", step: null, kind: "entered", version: 1, event_id: "cev_0mwz1Q2w3E4r5T6y7U8i9O" },
      { at: "2026-11-27T10:00:00.020Z", step: "steps.0", kind: "sent", message_id: "msg_0mwz3Z4x5C6v7B8n9M0a1S", channel: "whatsapp" },
      { at: "2026-11-27T10:00:00.020Z", step: "steps.1", kind: "waiting", for: "invoice_paid", until: "2026-11-30T10:00:00.020Z" },
    ],
  },
});

export type RunRecord = {
  id: string;
  flow_id: string;
  contact_id: string;
  status: "active" | "completed" | "stopped" | "failed";
  key: string | null;
  version: number;
  position: Path | null;
  /** The step a waiting run waits in (a timed wait leaves `position` on the step after it). */
  waiting_at: Path | null;
  converted_at: Date | string | null;
  created_at: Date | string;
  ended_at: Date | string | null;
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function publicRun(r: RunRecord, steps: Step[] | null): z.infer<typeof ZRun> {
  // D82: the step the run is at, or the one it waits in.
  const at = r.status === "active" ? (r.waiting_at ?? r.position) : null;
  const step = at && steps ? stepAt(steps, at) : undefined;
  return {
    id: r.id,
    flow_id: r.flow_id,
    contact_id: r.contact_id,
    status: r.status,
    key: r.key,
    version: r.version,
    current_step: at ? { id: (step as { id?: string } | undefined)?.id ?? null, path: stepParam(at) } : null,
    converted_at: iso(r.converted_at),
    created_at: iso(r.created_at)!,
    ended_at: iso(r.ended_at),
  };
}

export type StoredEntry = { at: Date | string; kind: string; position: unknown; detail: Record<string, unknown> };

/** A stored history entry in D82's terms; null for what D82 does not name (a tag or field change, a wait already over). */
export function publicEntry(h: StoredEntry): RunHistoryEntry | null {
  const at = iso(h.at)!;
  const step = Array.isArray(h.position) ? stepParam(h.position as Path) : null;
  const d = h.detail;
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  switch (h.kind) {
    case "enrolled":
      return { at, step: null, kind: "entered", version: d.version as number, ...(d.event_id ? { event_id: text(d.event_id) } : {}) };
    case "step":
      if (d.type === "send") return { at, step, kind: "sent", message_id: text(d.message_id), channel: d.channel as ChannelType };
      if (d.type === "branch") return { at, step, kind: "path", path: text(d.took) };
      return null;
    case "skipped":
      return {
        at,
        step,
        kind: "skipped",
        channel: d.channel as ChannelType,
        reason: text(d.skip) ?? skipReason(text(d.code) ?? ""),
        message: text(d.reason),
      };
    case "waiting":
      return { at, step, kind: "waiting", for: text(d.for), until: text(d.until) };
    case "held_quiet_hours":
      return { at, step, kind: "held_quiet_hours", until: text(d.until), time_zone: text(d.time_zone) };
    case "woke":
      return {
        at,
        step,
        kind: "woke",
        by: d.by as "event" | "message" | "timeout",
        ...(d.event_id ? { event_id: text(d.event_id) } : {}),
        ...(d.message_id ? { message_id: text(d.message_id), status: text(d.status) } : {}),
      };
    case "path":
      if (d.type === "split") return { at, step, kind: "path", path: `paths.${String(d.path)}`, index: d.path as number };
      return { at, step, kind: "path", path: text(d.path) };
    case "converted":
      return { at, step, kind: "converted", event_id: text(d.event_id) };
    case "moved":
      return { at, step, kind: "moved", version: d.to_version as number, from_version: d.from_version as number };
    case "completed":
      return { at, step: null, kind: "ended", status: "completed", reason: text(d.reason) ?? "end" };
    case "failed":
      return { at, step, kind: "ended", status: "failed", reason: "failed", message: text(d.reason) };
    case "stopped":
      return { at, step: null, kind: "ended", status: "stopped", ...(d.reason ? { reason: text(d.reason) } : {}) };
    default:
      return null;
  }
}
