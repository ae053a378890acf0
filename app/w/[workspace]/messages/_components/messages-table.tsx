import Link from "next/link";
import { When } from "@/app/_components/when.tsx";
import type { Message } from "@/server/messaging/message-schemas.ts";
import { CHANNEL_LABEL, ModeBadge, StatusBadge } from "./message-labels.tsx";

export type MessageRow = Message & { mode: string; contact_id: string };

type Props = { workspace: string; messages: MessageRow[]; busy: boolean };

/** One page of messages, newest first; the id opens the message. */
export function MessagesTable({ workspace, messages, busy }: Props) {
  const base = `/w/${encodeURIComponent(workspace)}/messages`;
  return (
    <div className="table-wrap" aria-busy={busy}>
      <table>
        <caption className="visually-hidden">Messages, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Message</th>
            <th scope="col">Status</th>
            <th scope="col">Channel</th>
            <th scope="col">To</th>
            <th scope="col">Mode</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {messages.map((message) => (
            <tr key={message.id}>
              <th scope="row">
                <Link href={`${base}/${encodeURIComponent(message.id)}`}>
                  <code>{message.id}</code>
                </Link>
              </th>
              <td>
                <StatusBadge status={message.status} />
              </td>
              <td>{CHANNEL_LABEL[message.channel]}</td>
              <td>{message.to ?? <span className="muted">—</span>}</td>
              <td>
                <ModeBadge mode={message.mode} />
              </td>
              <td>
                <When value={message.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
