import { msWords } from "@/app/_components/duration.ts";
import { Timeline } from "@/app/_components/timeline.tsx";
import { StatusBadge } from "./message-labels.tsx";

export type HistoryEntry = { id: string; at: string; kind: string; status: string | null; detail: unknown };

const KIND_LABEL: Record<string, string> = {
  status: "Status change",
  provider_request: "Provider request",
  provider_reply: "Provider reply",
  provider_report: "Provider report",
  retry: "Retry scheduled",
  outcome_unknown: "No answer",
  note: "Note",
};

type Detail = {
  source?: string;
  simulated?: boolean;
  applied?: boolean;
  error?: string;
  status_code?: number;
  duration_ms?: number;
  retry_in_ms?: number;
  settle_in_ms?: number;
  request_id?: string;
  excerpt?: string;
  inbound?: boolean;
  message?: string;
};

const asDetail = (detail: unknown): Detail => (detail && typeof detail === "object" ? (detail as Detail) : {});

/** Who answered for the channel, as a person names it. */
const providerName = (channel: "whatsapp" | "email") => (channel === "whatsapp" ? "WhatsApp" : "the mail server");

/** The provider's answer in a clause: "it answered 200 in 120 ms". */
function answered(d: Detail): string {
  const parts = [
    d.status_code !== undefined ? `answered ${d.status_code}` : null,
    d.duration_ms !== undefined ? `in ${d.duration_ms < 1000 ? `${d.duration_ms} ms` : msWords(d.duration_ms)}` : null,
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(" ")})` : "";
}

/** What a status means when the message reached it. */
function statusSentence(status: string | null, d: Detail, channel: "whatsapp" | "email"): string {
  const simulated = d.simulated ? " Simulated: test messages reach no provider." : "";
  switch (status) {
    case "queued":
      return d.source === "flow"
        ? "A flow's send step wrote the message; it waits for sending."
        : "The API accepted the message; it waits for sending.";
    case "sent":
      return `The message left the service: ${providerName(channel)} took it${answered(d)}.${simulated}`;
    case "delivered":
      return `${channel === "whatsapp" ? "WhatsApp" : "The mail provider"} reported it delivered to the recipient.${simulated}`;
    case "read":
      return `${channel === "email" ? "The recipient opened it (its tracking image loaded)." : "The recipient read it."}${simulated}`;
    case "failed":
      // The provider's reason as it came, closed as a sentence: "…: simulated failure. Simulated: …".
      return `The message failed${d.error ? `: ${d.error.replace(/[.!?]?\s*$/, ".")}` : "."}${simulated}`;
    case "received":
      return "The contact wrote this message to you.";
    default:
      return status ? `Status ${status}.` : "";
  }
}

/** An entry of a message's history as a sentence. */
export function entrySentence(entry: HistoryEntry, channel: "whatsapp" | "email"): string {
  const d = asDetail(entry.detail);
  const late =
    d.applied === false && entry.status ? " It came after a later status, so the message kept its status (statuses never go back)." : "";
  switch (entry.kind) {
    case "status":
      return statusSentence(entry.status, d, channel) + late;
    case "provider_report":
      return `${channel === "whatsapp" ? "WhatsApp" : "The mail provider"} reported “${entry.status ?? "an update"}”.${entry.status === "received" ? "" : late}`;
    case "provider_reply":
      return `${channel === "whatsapp" ? "WhatsApp" : "The mail server"} answered${answered(d)}${d.error ? `: ${d.error}` : "."}`;
    case "provider_request":
      return `The message was handed to ${providerName(channel)}.`;
    case "retry":
      return `${channel === "whatsapp" ? "WhatsApp" : "The mail server"} could not take it now${d.error ? ` (${d.error})` : ""}${answered(d)}; the service tries again in ${msWords(d.retry_in_ms ?? 0)}.`;
    case "outcome_unknown":
      return `${channel === "whatsapp" ? "WhatsApp" : "The mail server"} got the message but did not answer${d.error ? ` (${d.error.replace(/[.!?]\s*$/, "")})` : ""}; it is not sent again. The service waits ${msWords(d.settle_in_ms ?? 0)} for ${channel === "whatsapp" ? "WhatsApp's" : "the provider's"} report, then counts it as failed.`;
    case "note":
      return d.message ?? "A note.";
    default:
      return "";
  }
}

/**
 * A message's history, oldest first, as people read it: each step with its time and what
 * happened in a sentence (provider answers in plain words); the raw detail behind a toggle.
 */
export function MessageTimeline({ entries, channel }: { entries: HistoryEntry[]; channel: "whatsapp" | "email" }) {
  return (
    <Timeline
      entries={entries.map((entry) => ({
        key: entry.id,
        at: entry.at,
        kind: entry.kind,
        label: KIND_LABEL[entry.kind] ?? entry.kind,
        extra: entry.status ? <StatusBadge status={entry.status} /> : null,
        text: entrySentence(entry, channel),
        detail: entry.detail,
      }))}
    />
  );
}
