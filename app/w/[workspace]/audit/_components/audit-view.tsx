"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useCursorPages } from "@/app/_components/cursor-pages.ts";
import { Pager } from "@/app/_components/pager.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { AUDIT_ACTIONS, AUDIT_TARGETS, type AuditAction } from "@/server/audit/audit-actions.ts";
import { AuditTable } from "./audit-table.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

const PAGE_SIZE = 25;

/** The actions grouped by what they change, for the filter. */
const GROUPS = Object.entries(AUDIT_TARGETS).map(([type, label]) => ({
  label,
  actions: (Object.keys(AUDIT_ACTIONS) as AuditAction[]).filter((a) => a.startsWith(`${type === "user" ? "team" : type}.`)),
}));

/** The audit log page: filters by action and by actor, then the entries newest first, in pages. */
export function AuditView({ workspace }: { workspace: string }) {
  const trpc = useTRPC();
  const [action, setAction] = useState<AuditAction | "">("");
  const [actor, setActor] = useState("");
  const pages = useCursorPages();
  const after = pages.after;
  const actors = useQuery(trpc.audit.actors.queryOptions());
  const events = useQuery({
    ...trpc.audit.list.queryOptions({
      limit: PAGE_SIZE,
      ...(action ? { action } : {}),
      ...(actor ? { actor } : {}),
      ...(after ? { after } : {}),
    }),
    placeholderData: keepPreviousData,
  });

  const restart = pages.restart;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Audit log</h1>
          <p className="muted">
            Every change to this workspace&apos;s API keys, webhooks, channels, flows, team and settings: who made it, from the dashboard or
            the command line, and when.
          </p>
        </div>
      </div>
      <form className="filters audit-filters" role="search" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <select
            id="audit-action"
            value={action}
            onChange={(e) => {
              setAction(e.target.value as AuditAction | "");
              restart();
            }}
          >
            <option value="">All actions</option>
            {GROUPS.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.actions.map((a) => (
                  <option key={a} value={a}>
                    {AUDIT_ACTIONS[a]}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-actor">Actor</label>
          <select
            id="audit-actor"
            value={actor}
            onChange={(e) => {
              setActor(e.target.value);
              restart();
            }}
          >
            <option value="">Anyone</option>
            {actors.data?.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
      </form>
      <QueryState query={events} what="the audit log" />
      {events.data &&
        (events.data.items.length === 0 ? (
          <p className="empty">{action || actor ? "No changes match these filters." : "No changes recorded yet."}</p>
        ) : (
          <>
            <AuditTable workspace={workspace} events={events.data.items} busy={events.isFetching} />
            <Pager
              label="Pages of the audit log"
              page={pages.page}
              hasNext={Boolean(events.data.next)}
              onPrevious={pages.previous}
              onNext={() => pages.next(events.data.next)}
            />
          </>
        ))}
    </>
  );
}
