import { When } from "@/app/_components/when.tsx";
import { StatusBadge } from "./message-labels.tsx";

export type HistoryEntry = { id: string; at: string; kind: string; status: string | null; detail: unknown };

const KIND_LABEL: Record<string, string> = {
  status: "Status change",
  provider_request: "Provider request",
  provider_reply: "Provider reply",
  provider_report: "Provider report",
  retry: "Retry scheduled",
  note: "Note",
};

function hasDetail(detail: unknown): boolean {
  if (detail === null || detail === undefined) return false;
  return typeof detail !== "object" || Object.keys(detail).length > 0;
}

/**
 * Every entry of a message's history, oldest first: state changes, provider reports and
 * retries, each with its detail (provider request id, reply excerpt, error) as JSON.
 */
export function MessageTimeline({ entries }: { entries: HistoryEntry[] }) {
  if (entries.length === 0) return <p className="empty">No history yet.</p>;
  return (
    <ol className="timeline" aria-label="Timeline, oldest first">
      {entries.map((entry) => (
        <li key={entry.id} className={`timeline-entry kind-${entry.kind}`}>
          <div className="timeline-head">
            <When value={entry.at} />
            <span className="timeline-kind">{KIND_LABEL[entry.kind] ?? entry.kind}</span>
            {entry.status && <StatusBadge status={entry.status} />}
          </div>
          {hasDetail(entry.detail) && <pre className="json">{JSON.stringify(entry.detail, null, 2)}</pre>}
        </li>
      ))}
    </ol>
  );
}
