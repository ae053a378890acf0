import type { inferRouterOutputs } from "@trpc/server";
import { EventName } from "@/app/_components/event-name.tsx";
import type { AppRouter } from "@/server/api/root.ts";

type Outputs = inferRouterOutputs<AppRouter>["webhooks"];

/** An endpoint as `webhooks.list` shows it: never a secret, only when each valid one was made and expires. */
export type Endpoint = Outputs["list"][number];
/** One row of an endpoint's delivery log, with its last attempt. */
export type Delivery = Outputs["deliveries"]["items"][number];
/** One delivery with every attempt and the body it sends. */
export type DeliveryDetails = Outputs["delivery"];

export const DELIVERY_STATUS_LABEL: Record<Delivery["status"], string> = {
  pending: "pending",
  succeeded: "succeeded",
  failed: "failed",
};

/** A delivery's status as a colored badge. */
export function DeliveryStatusBadge({ status }: { status: Delivery["status"] }) {
  return <span className={`badge status-${status}`}>{DELIVERY_STATUS_LABEL[status]}</span>;
}

/** The events an endpoint receives: none listed means every event (D30). */
export function EventList({ events, label }: { events: string[]; label: string }) {
  if (events.length === 0) return <span>All events</span>;
  return (
    <ul className="chips" aria-label={label}>
      {events.map((name) => (
        <li key={name}>
          <EventName name={name} />
        </li>
      ))}
    </ul>
  );
}

/** A duration in milliseconds as people read it. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "";
  return ms < 10_000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The path of an endpoint's delivery log page. */
export function endpointPath(workspace: string, endpointId: string): string {
  return `/w/${encodeURIComponent(workspace)}/webhooks/${encodeURIComponent(endpointId)}`;
}
