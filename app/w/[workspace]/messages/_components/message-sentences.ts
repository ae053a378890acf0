import type { Message } from "@/server/messaging/message-schemas.ts";
import { CHANNEL_WORDS_OF } from "../../../../_channels/channel-words.ts";
import { msWords } from "../../../../_components/duration.ts";

// A message's history entries as sentences (the inspector's timeline); plain TypeScript, so the
// API tests read a real history through the same words.

export type HistoryEntry = { id: string; at: string; kind: string; status: string | null; detail: unknown };

export const KIND_LABEL: Record<string, string> = {
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
  /** A bounce or complaint report (email-reports.ts): its kind, where it came from, what it said. */
  bounce?: "permanent" | "temporary";
  diagnostic?: string;
  status?: string;
  complaint?: string;
};

const REPORT_SOURCE: Record<string, string> = {
  email_events: "your relay's events endpoint",
  inbound_smtp: "a report mailed to the bounce address",
  ses: "Amazon SES",
};

/** A bounce or complaint report as a sentence: what it said, where it came from, what it did. */
function reportSentence(d: Detail): string | null {
  const via = d.source && REPORT_SOURCE[d.source] ? ` (via ${REPORT_SOURCE[d.source]})` : "";
  if (d.bounce) {
    const said = [d.status ? `status ${d.status}` : null, d.diagnostic ? `“${d.diagnostic}”` : null].filter(Boolean).join(", ");
    return d.bounce === "permanent"
      ? `The receiving mail server bounced it for good${via}${said ? `: ${said}` : ""}. The address is suppressed: live e-mail to it is refused.`
      : `The receiving mail server could not deliver it yet${via}${said ? `: ${said}` : ""}. It keeps trying; nothing changes here.`;
  }
  if (d.complaint) {
    return `The recipient marked it as spam${via}, feedback type “${d.complaint}”. The address is suppressed and the contact no longer receives e-mail.`;
  }
  return null;
}

const asDetail = (detail: unknown): Detail => (detail && typeof detail === "object" ? (detail as Detail) : {});

/** Who answered for the channel, as a person names it. */
const providerName = (channel: Message["channel"]) => CHANNEL_WORDS_OF[channel].provider.name;

/** The provider as the subject of a sentence: who reports, who answers a send, whose API, and whose report. */
const WHO = (channel: Message["channel"]) => CHANNEL_WORDS_OF[channel].provider;

/** The provider's answer in a clause: "it answered 200 in 120 ms". */
function answered(d: Detail): string {
  const parts = [
    d.status_code !== undefined ? `answered ${d.status_code}` : null,
    d.duration_ms !== undefined ? `in ${d.duration_ms < 1000 ? `${d.duration_ms} ms` : msWords(d.duration_ms)}` : null,
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(" ")})` : "";
}

/** A provider's error as an aside in a sentence: " (the error)", its closing mark dropped; "" without one. */
const aside = (error: string | undefined) => (error ? ` (${error.replace(/[.!?]\s*$/, "")})` : "");

/** What a test message's simulated status means: it reached no provider, so none took it. */
function simulatedSentence(status: string, d: Detail, channel: Message["channel"]): string | null {
  const none = "test messages reach no provider.";
  switch (status) {
    case "sent":
      return `Simulated: the test message counts as sent, as if ${providerName(channel)} had taken it; ${none}`;
    case "delivered":
      return `Simulated: the test message counts as delivered; ${none}`;
    case "read":
      return `Simulated: the test message counts as ${CHANNEL_WORDS_OF[channel].read.word}; ${none}`;
    case "failed":
      return `Simulated: the test message failed${aside(d.error)}; ${none}`;
    default:
      return null;
  }
}

/** What a status means when the message reached it. */
function statusSentence(status: string | null, d: Detail, channel: Message["channel"]): string {
  const simulated = d.simulated && status ? simulatedSentence(status, d, channel) : null;
  if (simulated) return simulated;
  switch (status) {
    case "queued":
      return d.source === "flow"
        ? "A flow's send step wrote the message; it waits for sending."
        : "The API accepted the message; it waits for sending.";
    case "sent":
      return `The message left the service: ${providerName(channel)} took it${answered(d)}.`;
    case "delivered":
      return `${WHO(channel).reporter} reported it delivered to the recipient.`;
    case "read":
      return CHANNEL_WORDS_OF[channel].read.sentence;
    case "failed":
      // The provider's reason as it came, closed as a sentence.
      return `The message failed${d.error ? `: ${d.error.replace(/[.!?]?\s*$/, ".")}` : "."}`;
    case "received":
      return "The contact wrote this message to you.";
    default:
      return status ? `Status ${status}.` : "";
  }
}

/** An entry of a message's history as a sentence. */
export function entrySentence(entry: HistoryEntry, channel: Message["channel"]): string {
  const d = asDetail(entry.detail);
  const late =
    d.applied === false && entry.status ? " It came after a later status, so the message kept its status (statuses never go back)." : "";
  switch (entry.kind) {
    case "status":
      return statusSentence(entry.status, d, channel) + late;
    case "provider_report":
      return (
        reportSentence(d) ?? `${WHO(channel).reporter} reported “${entry.status ?? "an update"}”.${entry.status === "received" ? "" : late}`
      );
    case "provider_reply":
      return `${WHO(channel).server} answered${answered(d)}${d.error ? `: ${d.error}` : "."}`;
    case "provider_request":
      return `The message was handed to ${providerName(channel)}.`;
    case "retry":
      return `${WHO(channel).server} could not take it now${d.error ? ` (${d.error})` : ""}${answered(d)}; the service tries again in ${msWords(d.retry_in_ms ?? 0)}.`;
    case "outcome_unknown":
      return `${WHO(channel).server} got the message but did not answer${aside(d.error)}; it is not sent again. The service waits ${msWords(d.settle_in_ms ?? 0)} for ${WHO(channel).report} report, then counts it as failed.`;
    case "note":
      return d.message ?? "A note.";
    default:
      return "";
  }
}

/** Why the last attempt at a message waiting to be retried failed, in words, before the provider's own text. */
export function retryReason(error: string, channel: Message["channel"]): string {
  const who = WHO(channel).api;
  if (/ECONNREFUSED/.test(error)) return `${who} refused the connection`;
  if (/ENOTFOUND|EAI_AGAIN/.test(error)) return `${who}'s host name could not be resolved`;
  if (/ETIMEDOUT|timed out|timeout/i.test(error)) return `${who} did not answer in time`;
  if (/ECONNRESET|EPIPE/.test(error)) return `${who} closed the connection`;
  if (/EHOSTUNREACH|ENETUNREACH/.test(error)) return `${who} cannot be reached from here`;
  return `${who} could not take it now`;
}
