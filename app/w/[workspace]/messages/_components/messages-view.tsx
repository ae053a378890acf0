"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { Pager } from "@/app/_components/pager.tsx";
import { EXPORT_CAP } from "@/server/messaging/export-cap.ts";
import { useMode } from "@/app/_components/mode-switch.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { DashboardMode } from "@/app/_lib/dashboard-mode.ts";
import { STATUSES } from "./message-labels.tsx";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";
import { filtersQuery, PANEL_KEYS, readFilters, searchInput, type Filters } from "./message-filters.ts";
import { MessagesTable } from "./messages-table.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

const PAGE_SIZE = 25;

/** The CSV export of the list as filtered, in the mode shown (a route handler streams it). */
function exportHref(workspace: string, filters: Filters, mode: DashboardMode): string {
  const query = new URLSearchParams(Object.entries(searchInput(filters, mode)).map(([k, v]) => [k, String(v)])).toString();
  return `/w/${encodeURIComponent(workspace)}/messages/export?${query}`;
}
/** Typing searches once the user pauses; Enter searches at once. */
const TYPING_PAUSE_MS = 400;

/** The `after` of every page from the first (undefined) to the current one, for the search `key`. */
type Position = { key: string; cursors: (string | undefined)[] };

/** The message inspector's list: search, filters, newest first, page by page. */
export function MessagesView({ workspace }: { workspace: string }) {
  const trpc = useTRPC();
  const mode = useMode();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = readFilters(new URLSearchParams(params.toString()));
  const key = filtersQuery(filters);
  const [text, setText] = useState(filters.q);
  const [filtersOpen, setFiltersOpen] = useState(false);
  // A new search, filter or mode starts again at the first page.
  const positionKey = `${mode}:${key}`;
  const [position, setPosition] = useState<Position>({ key: positionKey, cursors: [undefined] });
  const cursors = position.key === positionKey ? position.cursors : [undefined];
  const after = cursors[cursors.length - 1];
  const invalidRange = Boolean(filters.from && filters.to && filters.from > filters.to);
  const page = useQuery({
    ...trpc.messages.search.queryOptions({ ...searchInput(filters, mode), limit: PAGE_SIZE, after }),
    placeholderData: keepPreviousData,
    enabled: !invalidRange,
  });

  /** Filters live in the URL: replaced in place (no navigation, no server round trip). */
  const setFilters = useCallback(
    (change: Partial<Filters>) => {
      const current = readFilters(new URLSearchParams(window.location.search));
      const query = filtersQuery({ ...current, ...change });
      window.history.replaceState(null, "", query ? `${pathname}?${query}` : pathname);
    },
    [pathname],
  );

  useEffect(() => {
    const timer = setTimeout(() => {
      if (text.trim() !== readFilters(new URLSearchParams(window.location.search)).q.trim()) setFilters({ q: text.trim() });
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, setFilters]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFilters({ q: text.trim() });
  }

  function clear() {
    setText("");
    window.history.replaceState(null, "", pathname);
  }

  const filtered = key !== "";
  const panelFilters = PANEL_KEYS.filter((k) => filters[k]).length;
  const next = page.isPlaceholderData ? null : (page.data?.next ?? null);
  const pageNumber = cursors.length;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Messages</h1>
          <p className="muted">
            Every {mode} message of this workspace, sent by the API or by flows, or received. Open one for its content and its whole
            history.
          </p>
        </div>
        <button type="button" className="button" onClick={() => page.refetch()} disabled={page.isFetching}>
          {page.isFetching && !page.isPending ? "Refreshing…" : "Refresh"}
        </button>
      </div>

      <div className="list-tools">
        <form role="search" className="search" onSubmit={onSubmit} aria-label="Messages">
          <div className="field">
            <label htmlFor="message-search">Search messages</label>
            <input
              id="message-search"
              type="search"
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder="Message ID, provider message ID, phone or e-mail"
              maxLength={200}
              autoComplete="off"
              spellCheck={false}
            />
          </div>
          <button type="submit" className="button">
            Search
          </button>
        </form>
        <button
          type="button"
          className="button filters-button"
          aria-expanded={filtersOpen}
          aria-controls="message-filters"
          onClick={() => setFiltersOpen(!filtersOpen)}
        >
          Filters{panelFilters > 0 ? ` (${panelFilters})` : ""}
        </button>
      </div>
      <div id="message-filters" className="message-filters" data-open={filtersOpen || undefined}>
        <div className="filters" role="group" aria-label="Filters">
          <div className="field">
            <label htmlFor="filter-status">Status</label>
            <select id="filter-status" value={filters.status} onChange={(e) => setFilters({ status: e.target.value as Filters["status"] })}>
              <option value="">Any status</option>
              {STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="filter-channel">Channel</label>
            <select
              id="filter-channel"
              value={filters.channel}
              onChange={(e) => setFilters({ channel: e.target.value as Filters["channel"] })}
            >
              <option value="">Any channel</option>
              {Object.entries(CHANNEL_LABEL).map(([type, label]) => (
                <option key={type} value={type}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="filter-from">From</label>
            <input
              id="filter-from"
              type="date"
              value={filters.from}
              max={filters.to || undefined}
              onChange={(e) => setFilters({ from: e.target.value })}
              aria-invalid={invalidRange ? true : undefined}
              aria-describedby={invalidRange ? "filter-range-error" : undefined}
            />
          </div>
          <div className="field">
            <label htmlFor="filter-to">To</label>
            <input
              id="filter-to"
              type="date"
              value={filters.to}
              min={filters.from || undefined}
              onChange={(e) => setFilters({ to: e.target.value })}
              aria-invalid={invalidRange ? true : undefined}
              aria-describedby={invalidRange ? "filter-range-error" : undefined}
            />
          </div>
          {filtered && (
            <button type="button" className="button" onClick={clear}>
              Clear filters
            </button>
          )}
        </div>
        {!invalidRange && (
          <p className="export-line">
            <a className="button" href={exportHref(workspace, filters, mode)} download>
              Export CSV
            </a>
            <span className="muted hint">
              {filtered ? `The ${mode} messages matching these filters` : `All ${mode} messages`}, newest first: the first{" "}
              {EXPORT_CAP.toLocaleString("en")} at most.
            </span>
          </p>
        )}
      </div>
      {invalidRange && (
        <p id="filter-range-error" role="alert" className="error">
          The first day of the range comes after its last day.
        </p>
      )}

      {!invalidRange && <QueryState query={page} what="the messages" lines={8} />}
      {page.data &&
        !invalidRange &&
        (page.data.items.length === 0 && pageNumber === 1 ? (
          <p className="empty" data-filters={key}>
            {filtered ? "No messages match this search." : `No ${mode} messages yet.`}
          </p>
        ) : (
          <MessagesTable workspace={workspace} messages={page.data.items} busy={page.isPlaceholderData} filters={key} />
        ))}
      {page.data && !invalidRange && (pageNumber > 1 || next) && (
        <Pager
          label="Pages of messages"
          page={pageNumber}
          hasNext={Boolean(next)}
          onPrevious={() => setPosition({ key: positionKey, cursors: cursors.slice(0, -1) })}
          onNext={() => next && setPosition({ key: positionKey, cursors: [...cursors, next] })}
        />
      )}
    </>
  );
}
