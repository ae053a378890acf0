import type { Message } from "@/server/messaging/message-schemas.ts";
import { Timeline } from "@/app/_components/timeline.tsx";
import { entrySentence, KIND_LABEL, type HistoryEntry } from "./message-sentences.ts";
import { StatusBadge } from "./message-labels.tsx";

/**
 * A message's history, oldest first, as people read it: each step with its time and what
 * happened in a sentence (provider answers in plain words); the raw detail behind a toggle.
 */
export function MessageTimeline({ entries, channel }: { entries: HistoryEntry[]; channel: Message["channel"] }) {
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
