import { Link } from "@/app/_components/link.tsx";
import { dayOf, When } from "@/app/_components/when.tsx";
import type { InspectorRow } from "@/server/messaging/inspect-messages.ts";
import { StatusBadge } from "./message-labels.tsx";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";
import { MessageSourceLink, MessageSummary } from "./message-source.tsx";

/** `filters`: the search and filters (as in the URL) that these rows answer. */
type Props = { workspace: string; messages: InspectorRow[]; busy: boolean; filters: string };

const COLUMNS = 6;

/**
 * One page of messages, newest first under a header for each day: to whom, what it says (text,
 * template or subject), how it stands (and why it failed), where it came from, the channel and
 * the time of day. The recipient is the link to the message, and the whole row opens it.
 * Below 640 px a row is one line: recipient, status, time (app/styles/messaging.css).
 */
export function MessagesTable({ workspace, messages, busy, filters }: Props) {
  const base = `/w/${encodeURIComponent(workspace)}`;
  const days = messages.map((m) => dayOf(m.created_at));
  return (
    <div className="table-wrap messages-table" aria-busy={busy} data-filters={filters}>
      <table>
        <caption className="visually-hidden">Messages, newest first</caption>
        <thead>
          <tr>
            <th scope="col">To</th>
            <th scope="col">Content</th>
            <th scope="col">Status</th>
            <th scope="col">Source</th>
            <th scope="col">Channel</th>
            <th scope="col">Time</th>
          </tr>
        </thead>
        {messages.map((message, i) => (
          <tbody key={message.id}>
            {(i === 0 || days[i - 1] !== days[i]) && (
              <tr className="day-row">
                <th scope="colgroup" colSpan={COLUMNS}>
                  {days[i]}
                </th>
              </tr>
            )}
            <tr className="message-row" data-message-id={message.id}>
              <th scope="row">
                <Recipient href={`${base}/messages/${encodeURIComponent(message.id)}`} message={message} />
              </th>
              <td className="message-summary">
                <MessageSummary summary={message.summary} />
              </td>
              <td className="status-cell">
                <span className="cell-stack">
                  <StatusBadge status={message.status} />
                  {message.status === "failed" && (
                    <span className="cell-line error-text">{message.error_reason ?? message.error ?? "No reason given."}</span>
                  )}
                </span>
              </td>
              <td className="source-cell">
                <MessageSourceLink workspace={workspace} source={message.source} />
              </td>
              <td>{CHANNEL_LABEL[message.channel]}</td>
              <td className="time-cell">
                <When value={message.created_at} short />
              </td>
            </tr>
          </tbody>
        ))}
      </table>
    </div>
  );
}

/** The contact by name (or, without one, by the address), linking to the message; the address below a name. */
function Recipient({ href, message }: { href: string; message: InspectorRow }) {
  const address = message.to ?? message.contact.phone ?? message.contact.email;
  return (
    <span className="cell-stack">
      <Link href={href} className="row-link">
        {message.contact.name ?? address ?? message.contact.id}
      </Link>
      {message.contact.name && address && <span className="cell-line nowrap">{address}</span>}
    </span>
  );
}
