import { Link } from "@/app/_components/link.tsx";
import { RelativeTime } from "@/app/_components/relative-time.tsx";
import type { InspectorRow } from "@/server/messaging/inspect-messages.ts";
import { CHANNEL_LABEL, ModeBadge, StatusBadge } from "./message-labels.tsx";
import { MessageSourceLink, MessageSummary } from "./message-source.tsx";

/** `filters`: the search and filters (as in the URL) that these rows answer. */
type Props = { workspace: string; messages: InspectorRow[]; busy: boolean; filters: string };

/**
 * One page of messages, newest first: what each says (text, template or subject), to whom,
 * how it stands (and why it failed), where it came from and when. The id opens the message.
 */
export function MessagesTable({ workspace, messages, busy, filters }: Props) {
  const base = `/w/${encodeURIComponent(workspace)}`;
  return (
    <div className="table-wrap messages-table" aria-busy={busy} data-filters={filters}>
      <table>
        <caption className="visually-hidden">Messages, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Message</th>
            <th scope="col">Content</th>
            <th scope="col">Contact</th>
            <th scope="col">Status</th>
            <th scope="col">Source</th>
            <th scope="col">Channel</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {messages.map((message) => (
            <tr key={message.id}>
              <th scope="row">
                <Link href={`${base}/messages/${encodeURIComponent(message.id)}`}>
                  <code>{message.id}</code>
                </Link>
              </th>
              <td className="message-summary">
                <MessageSummary summary={message.summary} />
              </td>
              <td>
                <ContactCell base={base} message={message} />
              </td>
              <td className="status-cell">
                <span className="cell-stack">
                  <StatusBadge status={message.status} />
                  {message.status === "failed" && (
                    <span className="cell-line error-text">{message.error_reason ?? message.error ?? "No reason given."}</span>
                  )}
                </span>
              </td>
              <td>
                <MessageSourceLink workspace={workspace} source={message.source} />
              </td>
              <td>
                <span className="cell-stack">
                  {CHANNEL_LABEL[message.channel]} <ModeBadge mode={message.mode} />
                </span>
              </td>
              <td>
                <RelativeTime value={message.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The contact by name (or, without one, by address) linked to its page, the address the message went to below a name. */
function ContactCell({ base, message }: { base: string; message: InspectorRow }) {
  const address = message.to ?? message.contact.phone ?? message.contact.email;
  const href = `${base}/contacts/${encodeURIComponent(message.contact.id)}`;
  return (
    <span className="cell-stack">
      <Link href={href}>{message.contact.name ?? address ?? message.contact.id}</Link>
      {message.contact.name && address && <span className="cell-line nowrap">{address}</span>}
    </span>
  );
}
