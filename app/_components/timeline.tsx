import type { ReactNode } from "react";
import { When } from "./when.tsx";

export type TimelineEntry = {
  key: string;
  at: string;
  /** A class for the entry's dot (`kind-status`, `kind-failed`). */
  kind: string;
  /** What happened, in a word or two. */
  label: string;
  /** Beside the label: a status badge, the step it happened at. */
  extra?: ReactNode;
  /** What happened, in a sentence. */
  text: ReactNode;
  /** The stored detail, folded under "Raw detail" when there is any. */
  detail?: unknown;
};

function hasDetail(detail: unknown): boolean {
  if (detail === null || detail === undefined) return false;
  return typeof detail !== "object" || Object.keys(detail).length > 0;
}

/**
 * A history, oldest first, as people read it: each entry with its time, what happened in a word
 * and in a sentence; the raw detail behind a toggle. A message's and a run's history share it.
 */
export function Timeline({ entries, label = "Timeline, oldest first" }: { entries: TimelineEntry[]; label?: string }) {
  if (entries.length === 0) return <p className="empty">No history yet.</p>;
  return (
    <ol className="timeline" aria-label={label}>
      {entries.map((entry) => (
        <li key={entry.key} className={`timeline-entry kind-${entry.kind}`}>
          <div className="timeline-head">
            <When value={entry.at} />
            <span className="timeline-kind">{entry.label}</span>
            {entry.extra}
          </div>
          <div className="timeline-text">{entry.text}</div>
          {hasDetail(entry.detail) && (
            <details className="raw-detail">
              <summary>Raw detail</summary>
              <pre className="json">{JSON.stringify(entry.detail, null, 2)}</pre>
            </details>
          )}
        </li>
      ))}
    </ol>
  );
}
