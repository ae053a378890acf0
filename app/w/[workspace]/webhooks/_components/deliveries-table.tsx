"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFault } from "@/app/_components/api-error.ts";
import { EventName } from "@/app/_components/event-name.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import { DeliveryStatusBadge, duration, type Delivery } from "./webhook-labels.tsx";

const EXCERPT_CHARS = 120;

type Props = {
  deliveries: Delivery[];
  busy: boolean;
  /** Admins, on an enabled endpoint: a Replay button on settled deliveries. */
  canReplay: boolean;
  onOpen: (delivery: Delivery) => void;
  onDone: (message: string) => void;
};

/** One page of an endpoint's delivery log, newest first, each with its last attempt. */
export function DeliveriesTable({ deliveries, busy, canReplay, onOpen, onDone }: Props) {
  return (
    <div className="table-wrap" aria-busy={busy}>
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
            <th scope="col" className="number">
              Duration
            </th>
            <th scope="col">Response</th>
            <th scope="col">Next retry</th>
            <th scope="col">Created</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id}>
              <th scope="row">
                <EventName name={d.event} />
              </th>
              <td>
                <code>{d.event_id}</code>
              </td>
              <td>
                <DeliveryStatusBadge status={d.status} />
              </td>
              <td className="number">{d.attempts}</td>
              <td className="number">{d.last_status_code ?? <span className="muted">—</span>}</td>
              <td className="number">{d.last_attempt ? duration(d.last_attempt.duration_ms) : <span className="muted">—</span>}</td>
              <td className="response-cell">
                <Response delivery={d} />
              </td>
              <td>
                <When value={d.next_attempt_at} empty="—" />
              </td>
              <td>
                <When value={d.created_at} />
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
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The last attempt's response excerpt (shortened) and error, or why none was made yet. */
function Response({ delivery: d }: { delivery: Delivery }) {
  const attempt = d.last_attempt;
  const excerpt = attempt?.response_excerpt ?? "";
  const error = attempt?.error ?? d.last_error;
  if (!excerpt && !error) return <span className="muted">{d.attempts === 0 ? "Not attempted yet" : "Empty"}</span>;
  return (
    <>
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
