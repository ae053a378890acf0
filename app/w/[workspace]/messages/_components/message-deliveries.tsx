import { Link } from "@/app/_components/link.tsx";
import { EventName } from "@/app/_components/event-name.tsx";
import { RelativeTime } from "@/app/_components/relative-time.tsx";
import { DeliveryStatusBadge } from "../../webhooks/_components/webhook-labels.tsx";
import type { MessageDetails } from "./message-detail.tsx";

/** The webhook deliveries of a message's events, each linked to its place in the endpoint's delivery log. */
export function MessageDeliveries({ workspace, deliveries }: { workspace: string; deliveries: MessageDetails["deliveries"] }) {
  if (deliveries.length === 0) {
    return <p className="empty">No webhook deliveries: no enabled endpoint listened for this message&apos;s events when they happened.</p>;
  }
  const base = `/w/${encodeURIComponent(workspace)}/webhooks`;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Webhook deliveries of this message&apos;s events</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Endpoint</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id}>
              <th scope="row">
                <EventName name={d.event} />
              </th>
              <td>
                <Link
                  href={`${base}/${encodeURIComponent(d.endpoint_id)}?delivery=${encodeURIComponent(d.id)}`}
                  aria-label={`Delivery ${d.id} in the log of ${d.endpoint_url}`}
                >
                  {d.endpoint_url}
                </Link>
              </td>
              <td>
                <DeliveryStatusBadge status={d.status as "pending" | "succeeded" | "failed"} />
              </td>
              <td>{d.attempts}</td>
              <td>
                {d.last_status_code !== null ? (
                  `HTTP ${d.last_status_code}`
                ) : d.last_error ? (
                  <span className="error-text">{d.last_error}</span>
                ) : (
                  <span className="muted">None yet</span>
                )}
              </td>
              <td>
                <RelativeTime value={d.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
