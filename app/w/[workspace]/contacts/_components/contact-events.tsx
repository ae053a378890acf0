"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { Link } from "@/app/_components/link.tsx";
import { useCursorPages } from "@/app/_components/cursor-pages.ts";
import { Pager } from "@/app/_components/pager.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";
import { RelativeTime } from "@/app/_components/relative-time.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import type { AppRouter } from "@/server/api/root.ts";
import { ModeBadge } from "../../messages/_components/message-labels.tsx";

type ContactEvent = inferRouterOutputs<AppRouter>["events"]["contactEvents"]["items"][number];

const PAGE_SIZE = 10;
/** How many properties a row shows inline; the rest unfold with the JSON. */
const INLINE_PROPERTIES = 3;
/** A client's `timestamp` this far from the recording time is shown beside it. */
const SKEW_MS = 60_000;

/** A property's value on one line: a text quoted, anything else as JSON, cut when long (the JSON below has it whole). */
function valueWords(value: unknown): string {
  const text = typeof value === "string" ? `“${value}”` : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** An event's properties: the first few as `key: value`, all of them as JSON behind a toggle. */
function Properties({ properties }: { properties: Record<string, unknown> }) {
  const entries = Object.entries(properties);
  if (entries.length === 0) return <span className="muted">None</span>;
  const shown = entries.slice(0, INLINE_PROPERTIES);
  return (
    <span className="cell-stack">
      {shown.map(([key, value]) => (
        <span key={key} className="cell-line property-line">
          <code>{key}</code>: {valueWords(value)}
        </span>
      ))}
      <details className="raw-detail">
        <summary>{entries.length > shown.length ? `All ${entries.length} properties` : "As JSON"}</summary>
        <pre className="json">{JSON.stringify(properties, null, 2)}</pre>
      </details>
    </span>
  );
}

/**
 * What the event did to flows (D62-D64, D82): the run each matching trigger started, or why
 * none did, and the runs it woke from a wait or counted a conversion of.
 */
function Triggered({ event, workspace, flowName }: { event: ContactEvent; workspace: string; flowName: (id: string) => string }) {
  if (event.triggered.length === 0 && event.effects.length === 0) return <span className="muted">None</span>;
  const base = `/w/${encodeURIComponent(workspace)}/flows`;
  const runLink = (flowId: string, runId: string) => (
    <Link href={`${base}/${encodeURIComponent(flowId)}?run=${encodeURIComponent(runId)}`}>{flowName(flowId)}</Link>
  );
  return (
    <ul className="triggered-list">
      {event.triggered.map((t) => (
        <li key={`${t.flow_id} ${t.run_id ?? t.reason}`}>
          {t.run_id ? (
            <>Started a run of {runLink(t.flow_id, t.run_id)}</>
          ) : (
            <>
              <Link href={`${base}/${encodeURIComponent(t.flow_id)}`}>{flowName(t.flow_id)}</Link>: no new run, the contact was already in
              it
            </>
          )}
        </li>
      ))}
      {event.effects.map((x) => (
        <li key={`${x.run_id} ${x.effect}`}>
          {x.effect === "woke" ? "Woke a waiting run of" : "Counted a conversion in"} {runLink(x.flow_id, x.run_id)}
        </li>
      ))}
    </ul>
  );
}

/**
 * A contact's events (D61), newest first, ten at a time, live and test together as its
 * messages are: each with its name, time, properties, and the runs it started, woke or converted.
 */
export function ContactEvents({ workspace, contactId }: { workspace: string; contactId: string }) {
  const trpc = useTRPC();
  const pages = useCursorPages();
  const after = pages.after;
  const page = useQuery({
    ...trpc.events.contactEvents.queryOptions({ contact_id: contactId, limit: PAGE_SIZE, ...(after ? { after } : {}) }),
    placeholderData: keepPreviousData,
  });
  // The flows' names (the contact's history reads the same list).
  const flows = useQuery(trpc.flows.all.queryOptions());
  const flowName = (id: string) => flows.data?.find((f) => f.id === id)?.name ?? id;
  const next = page.isPlaceholderData ? null : (page.data?.next ?? null);
  return (
    <section className="section" aria-labelledby="contact-events-heading" id="contact-events">
      <h2 id="contact-events-heading">Contact events</h2>
      <p className="muted hint">
        What this contact did, as your systems reported it (POST /events). Flows start, wake and convert on these.
      </p>
      <QueryState query={page} what="the events" />
      {page.data &&
        (page.data.items.length === 0 && pages.page === 1 ? (
          <p className="empty">No events recorded for this contact yet.</p>
        ) : (
          <div className="table-wrap" aria-busy={page.isPlaceholderData}>
            <table>
              <caption className="visually-hidden">Contact events, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Properties</th>
                  <th scope="col">Flows</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Recorded</th>
                </tr>
              </thead>
              <tbody>
                {page.data.items.map((e) => (
                  <tr key={e.id}>
                    <th scope="row">
                      <span className="cell-stack">
                        <code>{e.name}</code>
                        <span className="cell-line muted">{e.id}</span>
                      </span>
                    </th>
                    <td>
                      <Properties properties={e.properties} />
                    </td>
                    <td>
                      <Triggered event={e} workspace={workspace} flowName={flowName} />
                    </td>
                    <td>
                      <ModeBadge mode={e.mode} />
                    </td>
                    <td>
                      <span className="cell-stack">
                        <RelativeTime value={e.created_at} />
                        {Math.abs(new Date(e.timestamp).getTime() - new Date(e.created_at).getTime()) > SKEW_MS && (
                          <span className="cell-line muted">
                            happened <When value={e.timestamp} />
                          </span>
                        )}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      {page.data && (pages.page > 1 || next) && (
        <Pager
          label="Pages of this contact's events"
          page={pages.page}
          hasNext={Boolean(next)}
          onPrevious={pages.previous}
          onNext={() => pages.next(next)}
        />
      )}
    </section>
  );
}
