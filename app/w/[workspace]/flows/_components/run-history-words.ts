import { MESSAGE_OUTCOMES, type MessageOutcome, type Step } from "@/server/flows/flow-schemas.ts";
import type { RunDetails } from "./flow-labels.tsx";

// A run's stored history (server/flows/advance-run.ts, enroll-contact.ts, stop-runs.ts) read for
// the dashboard: what each entry is in a word, and what a wait waited for (D37, D63, D82).

export type Entry = RunDetails["history"][number];

/** What the run engine stores in an entry's detail (server/flows/advance-run.ts, enroll-contact.ts, stop-runs.ts). */
export type Detail = {
  type?: string;
  version?: number;
  event_id?: string;
  channel?: string;
  message_id?: string;
  reason?: string;
  skip?: string;
  took?: string;
  for?: string;
  until?: string;
  by?: string;
  status?: string;
  path?: string;
  add?: string[];
  remove?: string[];
  key?: string;
  value?: unknown;
  time_zone?: string;
  from_version?: number;
  to_version?: number;
};

export const detailOf = (entry: Entry): Detail => (entry.detail && typeof entry.detail === "object" ? (entry.detail as Detail) : {});
/** What a wait waited for: a time, an event (with its match) or an outcome of the run's latest message (D37, D63). */
export type WaitKind =
  | { kind: "duration"; duration: string }
  | { kind: "until" }
  | { kind: "event"; event: string; match?: Record<string, string> }
  | { kind: "message"; outcome: MessageOutcome };

/**
 * A `waiting` entry's `for`, read with the step it waited in when the run follows the flow's
 * current version (an event may be named like a message outcome); without it, by its form.
 */
export function waitKind(waitingFor: string | undefined, step: Step | undefined): WaitKind {
  if (step?.type === "wait") return step.duration ? { kind: "duration", duration: step.duration } : { kind: "until" };
  if (step?.type === "wait_for") {
    return step.message ? { kind: "message", outcome: step.message } : { kind: "event", event: step.event ?? "", match: step.match };
  }
  if (!waitingFor || /^\d{4}-/.test(waitingFor)) return { kind: "until" };
  if (/^P/.test(waitingFor)) return { kind: "duration", duration: waitingFor };
  if ((MESSAGE_OUTCOMES as readonly string[]).includes(waitingFor)) return { kind: "message", outcome: waitingFor as MessageOutcome };
  return { kind: "event", event: waitingFor };
}

/** An entry's kind in a word or two. */
export function historyLabel(entry: Entry): string {
  const d = detailOf(entry);
  switch (entry.kind) {
    case "enrolled":
      return "Entered";
    case "step":
      return { send: "Sent", wait: "Waited", branch: "Branch", tag: "Tags", set_field: "Field set", exit: "Exit" }[d.type ?? ""] ?? "Step";
    case "skipped":
      return "Skipped";
    case "waiting":
      return "Waiting";
    case "held_quiet_hours":
      return "Quiet hours";
    case "woke":
      return "Woke";
    case "path":
      return "Path";
    case "converted":
      return "Converted";
    case "moved":
      return "Moved";
    case "completed":
      return "Completed";
    case "stopped":
      return "Stopped";
    case "failed":
      return "Failed";
    default:
      return entry.kind;
  }
}
