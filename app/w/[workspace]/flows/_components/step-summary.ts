import { CHANNEL_WORDS_OF } from "@/app/_channels/channel-words.ts";
import { CHANNEL_WORDS } from "@/app/_components/channel-names.ts";
import { isoDurationWords } from "@/app/_components/duration.ts";
import type { Condition, MessageOutcome, Step } from "@/server/flows/flow-schemas.ts";

/** A wait for an outcome of the run's latest message, in a few words. */
export const MESSAGE_WAIT_WORDS: Record<MessageOutcome, string> = {
  delivered: "Wait for the last message to be delivered",
  read: "Wait for the last message to be read",
  replied: "Wait for a reply to the last message",
  failed: "Wait for the last message to fail",
};

type Names = { tags?: { id: string; name: string }[] };

const quoted = (text: string, max = 40) => `“${text.length > max ? `${text.slice(0, max - 1)}…` : text}”`;

function conditionSummary(condition: Condition, tagName: (id: string) => string): string {
  if ("has_tag" in condition) return condition.has_tag ? `If tagged ${tagName(condition.has_tag)}` : "If tagged (choose a tag)";
  if ("opted_out" in condition) return `If opted out of ${CHANNEL_WORDS[condition.opted_out]}`;
  const field = condition.field || "(choose a field)";
  return "exists" in condition ? `If ${field} is set` : `If ${field} is ${quoted(String(condition.equals), 24)}`;
}

/**
 * A step in a few words, as the canvas, the outline and the runs-by-step table name it:
 * "Send WhatsApp: template order_update", "Wait 2 days", "Split 50/50", "If tagged VIP".
 */
export function stepSummary(step: Step, { tags = [] }: Names = {}): string {
  const tagName = (id: string) => tags.find((t) => t.id === id)?.name ?? id;
  switch (step.type) {
    case "send":
      return CHANNEL_WORDS_OF[step.channel].summary(step, (text) => quoted(text));
    case "wait":
      return step.duration
        ? `Wait ${isoDurationWords(step.duration)}`
        : `Wait until ${(step.until ?? "").slice(0, 16).replace("T", " ")} UTC`;
    case "wait_for":
      return `${step.message ? MESSAGE_WAIT_WORDS[step.message] : `Wait for ${step.event || "an event"}`}, at most ${isoDurationWords(step.timeout)}`;
    case "branch":
      return conditionSummary(step.if, tagName);
    case "split":
      return `Split ${splitShares(step.paths).join("/")}`;
    case "tag": {
      const list = (ids: string[]) => `${ids.length === 1 ? "tag" : "tags"} ${ids.map(tagName).join(", ")}`;
      const parts = [step.add?.length ? `Add ${list(step.add)}` : "", step.remove?.length ? `Remove ${list(step.remove)}` : ""].filter(
        Boolean,
      );
      return parts.length ? parts.join("; ") : "Add or remove tags (choose them)";
    }
    case "set_field":
      return step.value === null ? `Clear ${step.key || "a field"}` : `Set ${step.key || "a field"} to ${quoted(String(step.value), 24)}`;
    case "exit":
      return "Exit";
  }
}

/** Each split path's share of the runs in percent (D68); a weight being typed (none, 0, a fraction) counts as none. */
export function splitShares(paths: { weight: number }[]): number[] {
  const weights = paths.map((p) => (Number.isInteger(p.weight) && p.weight > 0 ? p.weight : 0));
  const total = weights.reduce((sum, w) => sum + w, 0) || 1;
  return weights.map((w) => Math.round((w / total) * 100));
}
