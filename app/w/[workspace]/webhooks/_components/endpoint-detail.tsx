"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "@/app/_components/link.tsx";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Pager } from "@/app/_components/pager.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { DELIVERY_STATUSES, type DeliveryStatus } from "@/server/webhooks/webhook-schemas.ts";
import { DeliveriesTable } from "./deliveries-table.tsx";
import { DeliveryDialog } from "./delivery-dialog.tsx";
import { EndpointCard } from "./endpoint-card.tsx";
import { ReplayFailedDialog } from "./replay-failed-dialog.tsx";
import type { Endpoint } from "./webhook-labels.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

const PAGE_SIZE = 25;
/** While deliveries are pending the log follows them. */
const REFRESH_MS = 2_000;

/** The `after` of every page from the first (undefined) to the current one, for the filter `key`. */
type Position = { key: string; cursors: (string | undefined)[] };

function readStatus(params: URLSearchParams): DeliveryStatus | "" {
  const value = params.get("status");
  return DELIVERY_STATUSES.includes(value as DeliveryStatus) ? (value as DeliveryStatus) : "";
}

type Props = { workspace: string; endpointId: string; canManage: boolean };

/** One endpoint and its delivery log: filter by status, page by page, open a delivery, replay. */
export function EndpointDetail({ workspace, endpointId, canManage }: Props) {
  const trpc = useTRPC();
  const router = useRouter();
  const list = `/w/${encodeURIComponent(workspace)}/webhooks`;
  const endpoints = useQuery({
    ...trpc.webhooks.list.queryOptions(),
    refetchInterval: (query) => (query.state.data?.some((e) => e.id === endpointId && e.last_24h.pending > 0) ? REFRESH_MS : false),
  });
  const [done, setDone] = useState<string | null>(null);
  const back = (
    <Link href={list} className="back-link">
      ← All endpoints
    </Link>
  );
  if (endpoints.isPending || endpoints.isError) {
    return (
      <>
        {back}
        <QueryState query={endpoints} what="the endpoint" />
      </>
    );
  }
  const endpoint = endpoints.data.find((e) => e.id === endpointId);
  if (!endpoint) {
    return (
      <>
        {back}
        <p className="empty">This endpoint no longer exists.</p>
      </>
    );
  }
  return (
    <>
      {back}
      <div className="page-header">
        <div>
          <h1>Delivery log</h1>
          <p className="muted">Every delivery to this endpoint in the last 30 days, newest first, with each attempt and its answer.</p>
        </div>
      </div>
      <p role="status" className="ok">
        {done ?? ""}
      </p>
      <EndpointCard endpoint={endpoint} workspace={workspace} canManage={canManage} onDone={setDone} onDeleted={() => router.push(list)} />
      <DeliveryLog workspace={workspace} endpoint={endpoint} canManage={canManage} onDone={setDone} />
    </>
  );
}

type LogProps = { workspace: string; endpoint: Endpoint; canManage: boolean; onDone: (message: string) => void };

function DeliveryLog({ workspace, endpoint, canManage, onDone }: LogProps) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const params = useSearchParams();
  const status = readStatus(new URLSearchParams(params.toString()));
  const [position, setPosition] = useState<Position>({ key: status, cursors: [undefined] });
  // Another filter starts again at the first page.
  const cursors = position.key === status ? position.cursors : [undefined];
  const after = cursors[cursors.length - 1];
  const page = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({
      endpoint_id: endpoint.id,
      limit: PAGE_SIZE,
      ...(status ? { status } : {}),
      ...(after ? { after } : {}),
    }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === "pending") ? REFRESH_MS : false),
  });
  // `?delivery=whd_…` (a message's page links here) opens that delivery at once.
  const [open, setOpen] = useState<string | null>(() => params.get("delivery"));
  const [replaying, setReplaying] = useState(false);

  /** The filter lives in the URL: replaced in place (no navigation, no server round trip). */
  function setStatus(value: string) {
    const query = new URLSearchParams(window.location.search);
    if (value) query.set("status", value);
    else query.delete("status");
    const text = query.toString();
    window.history.replaceState(null, "", text ? `${pathname}?${text}` : pathname);
  }

  const next = page.isPlaceholderData ? null : (page.data?.next ?? null);
  const pageNumber = cursors.length;
  return (
    <section className="section" aria-labelledby="deliveries-heading">
      <div className="section-head">
        <h2 id="deliveries-heading">Deliveries</h2>
        <div className="header-actions">
          <button type="button" className="button" onClick={() => page.refetch()} disabled={page.isFetching}>
            {page.isFetching && !page.isPending ? "Refreshing…" : "Refresh"}
          </button>
          {canManage && endpoint.enabled && (
            <button type="button" className="button" onClick={() => setReplaying(true)}>
              Replay failed deliveries…
            </button>
          )}
        </div>
      </div>
      <div className="filters" role="group" aria-label="Filters">
        <div className="field">
          <label htmlFor="delivery-status">Status</label>
          <select id="delivery-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any status</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </div>

      <QueryState query={page} what="the deliveries" />
      {page.data &&
        (page.data.items.length === 0 && pageNumber === 1 ? (
          <p className="empty">{status ? `No ${status} deliveries.` : "No deliveries yet."}</p>
        ) : (
          <DeliveriesTable
            workspace={workspace}
            deliveries={page.data.items}
            busy={page.isPlaceholderData}
            canReplay={canManage && endpoint.enabled}
            onOpen={(d) => setOpen(d.id)}
            onDone={onDone}
          />
        ))}
      {page.data && (pageNumber > 1 || next) && (
        <Pager
          label="Pages of deliveries"
          page={pageNumber}
          hasNext={Boolean(next)}
          onPrevious={() => setPosition({ key: status, cursors: cursors.slice(0, -1) })}
          onNext={() => next && setPosition({ key: status, cursors: [...cursors, next] })}
        />
      )}

      {open && <DeliveryDialog deliveryId={open} onClose={() => setOpen(null)} />}
      {replaying && (
        <ReplayFailedDialog
          endpoint={endpoint}
          onClose={() => setReplaying(false)}
          onReplayed={(count) => {
            setReplaying(false);
            onDone(count === 1 ? "1 failed delivery queued again." : `${count} failed deliveries queued again.`);
          }}
        />
      )}
    </section>
  );
}
