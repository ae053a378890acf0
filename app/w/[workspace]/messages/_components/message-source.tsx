import { Link } from "@/app/_components/link.tsx";
import type { InspectorRow, MessageSource } from "@/server/messaging/inspect-messages.ts";

/** Where a message came from: the API key that sent it, the flow (linked) whose run sent it, or a contact writing in. */
export function MessageSourceLink({ workspace, source }: { workspace: string; source: MessageSource }) {
  const base = `/w/${encodeURIComponent(workspace)}`;
  switch (source.kind) {
    case "api":
      return source.key_name ? (
        <span className="cell-stack">
          API key <span className="cell-line source-name">{source.key_name}</span>
        </span>
      ) : (
        <span>API</span>
      );
    case "flow":
      return (
        <span className="cell-stack">
          Flow{" "}
          {source.flow_id ? (
            <Link className="cell-line" href={`${base}/flows/${encodeURIComponent(source.flow_id)}`}>
              {source.flow_name ?? source.flow_id}
            </Link>
          ) : null}
        </span>
      );
    case "inbound":
      return <span>The contact wrote</span>;
    default:
      return <span>{source.name}</span>;
  }
}

const SUMMARY_LABEL: Record<NonNullable<InspectorRow["summary"]>["kind"], string> = {
  text: "",
  template: "Template",
  subject: "Subject",
  media: "Media",
};

/** A row's content in a line: the WhatsApp text, the template's name, or the e-mail's subject. */
export function MessageSummary({ summary }: { summary: InspectorRow["summary"] }) {
  if (!summary) return <span className="muted">No content</span>;
  const label = SUMMARY_LABEL[summary.kind];
  return (
    <span className="summary-text">
      {label && <span className="muted">{label}: </span>}
      {summary.text || <span className="muted">(empty)</span>}
    </span>
  );
}
