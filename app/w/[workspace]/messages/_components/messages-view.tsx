"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { apiFault } from "@/app/_components/api-error.ts";
import { Pager } from "@/app/_components/pager.tsx";
import { EXPORT_CAP } from "@/server/messaging/export-cap.ts";
import { useTRPC } from "@/app/_components/trpc.ts";
import { CHANNEL_LABEL, STATUSES } from "./message-labels.tsx";
import { filtersQuery, readFilters, searchInput, type Filters } from "./message-filters.ts";
import { MessagesTable } from "./messages-table.tsx";

const PAGE_SIZE = 25;

/** The CSV export of the list as filtered (a route handler streams it). */
function exportHref(workspace: string, filters: Filters): string {
  const query = new URLSearchParams(Object.entries(searchInput(filters)).map(([k, v]) => [k, String(v)])).toString();
  return `/w/${encodeURIComponent(workspace)}/messages/export${query ? `?${query}` : ""}`;
}
/** Typing searches once the user pauses; Enter searches at once. */
const TYPING_PAUSE_MS = 400;

/** The `after` of every page from the first (undefined) to the current one, for the search `key`. */
type Position = { key: string; cursors: (string | undefined)[] };

/** The message inspector's list: search, filters, newest first, page by page. */
export function MessagesView({ workspace }: { workspace: string }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const params = useSearchParams();
  const filters = readFilters(new URLSearchParams(params.toString()));
  const key = filtersQuery(filters);
  const [text, setText] = useState(filters.q);
  const [position, setPosition] = useState<Position>({ key, cursors: [undefined] });
  // A new search or filter starts again at the first page.
  const cursors = position.key === key ? position.cursors : [undefined];
  const after = cursors[cursors.length - 1];
  const invalidRange = Boolean(filters.from && filters.to && filters.from > filters.to);
  const page = useQuery({
    ...trpc.messages.search.queryOptions({ ...searchInput(filters), limit: PAGE_SIZE, after }),
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
  const next = page.isPlaceholderData ? null : (page.data?.next ?? null);
  const pageNumber = cursors.length;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Messages</h1>
          <p className="muted">
            Every message this workspace sent, by the API or by flows, in test and live mode. Open one for its content and its whole
            history.
          </p>
        </div>
        <button type="button" className="button" onClick={() => page.refetch()} disabled={page.isFetching}>
          {page.isFetching && !page.isPending ? "Refreshing…" : "Refresh"}
        </button>
      </div>

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
            <option value="whatsapp">{CHANNEL_LABEL.whatsapp}</option>
            <option value="email">{CHANNEL_LABEL.email}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-mode">Mode</label>
          <select id="filter-mode" value={filters.mode} onChange={(e) => setFilters({ mode: e.target.value as Filters["mode"] })}>
            <option value="">Test and live</option>
            <option value="live">live</option>
            <option value="test">test</option>
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
          <a className="button" href={exportHref(workspace, filters)} download>
            Export CSV
          </a>
          <span className="muted hint">
            {filtered ? "The messages matching these filters" : "All messages"}, newest first: the first {EXPORT_CAP.toLocaleString("en")}{" "}
            at most.
          </span>
        </p>
      )}
      {invalidRange && (
        <p id="filter-range-error" role="alert" className="error">
          The first day of the range comes after its last day.
        </p>
      )}

      {page.isPending && !invalidRange && <p role="status">Loading messages…</p>}
      {page.isError && (
        <p role="alert" className="error">
          Could not load the messages: {apiFault(page.error).message}
        </p>
      )}
      {page.data &&
        !invalidRange &&
        (page.data.items.length === 0 && pageNumber === 1 ? (
          <p className="empty" data-filters={key}>
            {filtered ? "No messages match this search." : "No messages yet."}
          </p>
        ) : (
          <MessagesTable workspace={workspace} messages={page.data.items} busy={page.isPlaceholderData} filters={key} />
        ))}
      {page.data && !invalidRange && (pageNumber > 1 || next) && (
        <Pager
          label="Pages of messages"
          page={pageNumber}
          hasNext={Boolean(next)}
          onPrevious={() => setPosition({ key, cursors: cursors.slice(0, -1) })}
          onNext={() => next && setPosition({ key, cursors: [...cursors, next] })}
        />
      )}
    </>
  );
}
