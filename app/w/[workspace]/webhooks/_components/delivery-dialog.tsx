"use client";

import { useQuery } from "@tanstack/react-query";
import { EventName } from "@/app/_components/event-name.tsx";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import { DeliveryStatusBadge, duration, type DeliveryDetails } from "./webhook-labels.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

const REFRESH_MS = 2_000;

/** The body as sent is compact JSON; shown indented when it parses. */
function readable(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** One delivery: every attempt, oldest first, and the body it sends (the same on every attempt and replay). */
export function DeliveryDialog({ deliveryId, onClose }: { deliveryId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const delivery = useQuery({
    ...trpc.webhooks.delivery.queryOptions({ delivery_id: deliveryId }),
    refetchInterval: (query) => (query.state.data?.status === "pending" ? REFRESH_MS : false),
  });
  return (
    <Modal title={`Delivery ${deliveryId}`} onClose={onClose}>
      <div className="stack delivery-details">
        <QueryState query={delivery} what="the delivery" />
        {delivery.data && <Details delivery={delivery.data} />}
        <DialogFooter>
          <button type="button" className="button primary" onClick={onClose} autoFocus>
            Close
          </button>
        </DialogFooter>
      </div>
    </Modal>
  );
}

function Details({ delivery: d }: { delivery: DeliveryDetails }) {
  return (
    <>
      <dl className="details">
        <dt>Event</dt>
        <dd>
          <EventName name={d.event} describe />
        </dd>
        <dt>Event ID</dt>
        <dd>
          <code>{d.event_id}</code>
        </dd>
        <dt>Status</dt>
        <dd>
          <DeliveryStatusBadge status={d.status} />
        </dd>
        <dt>Attempts</dt>
        <dd>{d.attempts}</dd>
        {d.next_attempt_at && (
          <>
            <dt>Next retry</dt>
            <dd>
              <When value={d.next_attempt_at} />
            </dd>
          </>
        )}
        <dt>Created</dt>
        <dd>
          <When value={d.created_at} />
        </dd>
      </dl>

      <section aria-labelledby="attempts-heading">
        <h3 id="attempts-heading">Attempts</h3>
        {d.attempts_log.length === 0 ? (
          <p className="empty">Not attempted yet.</p>
        ) : (
          <ol className="timeline" aria-label="Attempts, oldest first">
            {d.attempts_log.map((a, i) => (
              <li key={`${a.at}-${i}`} className={a.error ? "timeline-entry kind-retry" : "timeline-entry kind-status"}>
                <div className="timeline-head">
                  <When value={a.at} />
                  <span className="timeline-kind">Attempt {i + 1}</span>
                  <span>{a.status_code === null ? "no answer" : `HTTP ${a.status_code}`}</span>
                  <span className="muted">{duration(a.duration_ms)}</span>
                </div>
                {a.error && <p className="error-text">{a.error}</p>}
                {a.response_excerpt ? <pre className="json">{a.response_excerpt}</pre> : <p className="muted">No response body.</p>}
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="body-heading">
        <h3 id="body-heading">Body</h3>
        {d.body === null ? (
          <p className="muted">The event no longer exists.</p>
        ) : (
          <>
            <pre className="json" aria-label="Body, indented">
              {readable(d.body)}
            </pre>
            <details>
              <summary>As sent (the signed bytes)</summary>
              <pre className="json">{d.body}</pre>
            </details>
          </>
        )}
      </section>
    </>
  );
}
