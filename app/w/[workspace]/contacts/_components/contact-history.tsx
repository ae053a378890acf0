import { EventName } from "@/app/_components/event-name.tsx";
import { When } from "@/app/_components/when.tsx";

export type HistoryEvent = { id: string; event: string; mode: string; data: unknown; timestamp: string };

/** The events recorded about a contact, newest first; each event's data unfolds as JSON. */
export function ContactHistory({ events }: { events: HistoryEvent[] }) {
  if (events.length === 0) return <p className="empty">No events yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Events of this contact, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Mode</th>
            <th scope="col">Time</th>
            <th scope="col">Data</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id}>
              <th scope="row">
                <EventName name={event.event} describe />
              </th>
              <td>
                <span className={`badge ${event.mode}`}>{event.mode}</span>
              </td>
              <td>
                <When value={event.timestamp} />
              </td>
              <td>
                <details>
                  <summary>Show data</summary>
                  <pre className="json">{JSON.stringify(event.data, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
