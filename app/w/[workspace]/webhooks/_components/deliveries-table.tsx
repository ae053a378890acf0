"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFault } from "@/app/_components/api-error.ts";
import { EventName } from "@/app/_components/event-name.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { dayOf, When } from "@/app/_components/when.tsx";
import { Link } from "@/app/_components/link.tsx";
import { DeliveryStatusBadge, duration, type Delivery } from "./webhook-labels.tsx";

const EXCERPT_CHARS = 120;

type Props = {
  workspace: string;
  deliveries: Delivery[];
  busy: boolean;
  /** Admins, on an enabled endpoint: a Replay button on settled deliveries. */
  canReplay: boolean;
  onOpen: (delivery: Delivery) => void;
  onDone: (message: string) => void;
};

/** One page of an endpoint's delivery log, newest first under a header for each day; the whole row opens its details. */
export function DeliveriesTable({ workspace, deliveries, busy, canReplay, onOpen, onDone }: Props) {
  const base = `/w/${encodeURIComponent(workspace)}`;
  const days = deliveries.map((d) => dayOf(d.created_at));
  return (
    <div className="table-wrap deliveries" aria-busy={busy}>
      <table>
        <caption className="visually-hidden">Deliveries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Event ID</th>
            <th scope="col">Status</th>
            <th scope="col" className="number">
              Attempts
            </th>
            <th scope="col" className="number">
              Status code
            </th>
            <th scope="col">Response</th>
            <th scope="col">Time</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        {deliveries.map((d, i) => {
          const today = days[i]!;
          const header = i === 0 || days[i - 1] !== today;
          return (
            <tbody key={d.id}>
              {header && (
                <tr className="day-row">
                  <th scope="colgroup" colSpan={8}>
                    {today}
                  </th>
                </tr>
              )}
              <tr
                className="clickable"
                onClick={(event) => {
                  if (!(event.target as HTMLElement).closest("a, button")) onOpen(d);
                }}
              >
                <th scope="row">
                  <EventName name={d.event} />
                  {(d.message_id || d.contact_id) && (
                    <span className="subject-links">
                      {d.message_id && <Link href={`${base}/messages/${encodeURIComponent(d.message_id)}`}>Message</Link>}
                      {d.contact_id && <Link href={`${base}/contacts/${encodeURIComponent(d.contact_id)}`}>Contact</Link>}
                    </span>
                  )}
                </th>
                <td className="id-cell">
                  <code title={d.event_id}>{d.event_id}</code>
                </td>
                <td>
                  <DeliveryStatusBadge status={d.status} />
                  {d.next_attempt_at && (
                    <span className="muted small next-retry">
                      retry <When value={d.next_attempt_at} short />
                    </span>
                  )}
                </td>
                <td className="number">{d.attempts}</td>
                <td className="number">{d.last_status_code ?? <span className="muted">—</span>}</td>
                <td className="response-cell">
                  <Response delivery={d} />
                </td>
                <td className="time-cell">
                  <When value={d.created_at} short />
                </td>
                <td>
                  <div className="row-actions">
                    <button type="button" className="button small" aria-label={`Details of delivery ${d.id}`} onClick={() => onOpen(d)}>
                      Details
                    </button>
                    {canReplay && d.status !== "pending" && <ReplayButton delivery={d} onDone={onDone} />}
                  </div>
                </td>
              </tr>
            </tbody>
          );
        })}
      </table>
    </div>
  );
}

/** The last attempt's response excerpt (shortened) and error, or why none was made yet. */
function Response({ delivery: d }: { delivery: Delivery }) {
  const attempt = d.last_attempt;
  const excerpt = attempt?.response_excerpt ?? "";
  const error = attempt?.error ?? d.last_error;
  const took = attempt ? <span className="muted small">{duration(attempt.duration_ms)} · </span> : null;
  if (!excerpt && !error)
    return (
      <span className="muted">
        {took}
        {d.attempts === 0 ? "Not attempted yet" : "Empty"}
      </span>
    );
  return (
    <>
      {took}
      {excerpt && <code className="excerpt">{excerpt.length > EXCERPT_CHARS ? `${excerpt.slice(0, EXCERPT_CHARS)}…` : excerpt}</code>}
      {error && <span className="error-text excerpt-error">{error}</span>}
    </>
  );
}

function ReplayButton({ delivery, onDone }: { delivery: Delivery; onDone: (message: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const replay = useMutation(
    trpc.webhooks.replay.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          queryClient.invalidateQueries(trpc.webhooks.deliveries.queryFilter()),
          queryClient.invalidateQueries(trpc.webhooks.delivery.queryFilter({ delivery_id: delivery.id })),
          queryClient.invalidateQueries(trpc.webhooks.list.queryFilter()),
        ]);
        onDone(`Delivery ${delivery.id} (${delivery.event}) queued again.`);
      },
    }),
  );
  return (
    <>
      <button
        type="button"
        className="button small"
        aria-label={`Replay delivery ${delivery.id}`}
        disabled={replay.isPending}
        onClick={() => replay.mutate({ delivery_id: delivery.id })}
      >
        {replay.isPending ? "Replaying…" : "Replay"}
      </button>
      {replay.isError && (
        <span role="alert" className="error-text">
          {apiFault(replay.error).message}
        </span>
      )}
    </>
  );
}
