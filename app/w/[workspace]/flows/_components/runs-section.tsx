"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useId, useState } from "react";
import { useCursorPages } from "@/app/_components/cursor-pages.ts";
import { Pager } from "@/app/_components/pager.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";
import { RelativeTime } from "@/app/_components/relative-time.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { RUN_STATUSES, type RunStatus } from "@/server/flows/flow-schemas.ts";
import { RunStatusBadge, type FlowDetails, type Run } from "./flow-labels.tsx";
import { ContactCell, RunPosition } from "./run-cells.tsx";
import { RunDialog } from "./run-dialog.tsx";
import { UnenrollDialog } from "./unenroll-dialog.tsx";

const PAGE_SIZE = 25;
/** While runs are active the list follows them. */
const REFRESH_MS = 2_000;

type Props = { workspace: string; flow: FlowDetails; canManage: boolean };

/** A flow's runs, newest first: a status filter, pages, a run's history, and Unenroll (admins). */
export function RunsSection({ workspace, flow, canManage }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const initialRun = useSearchParams().get("run");
  const id = useId();
  const [status, setStatus] = useState<RunStatus | "">("");
  const pages = useCursorPages();
  const after = pages.after;
  const page = useQuery({
    ...trpc.flows.runs.queryOptions({ flow_id: flow.id, limit: PAGE_SIZE, ...(status ? { status } : {}), ...(after ? { after } : {}) }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((r) => r.status === "active") ? REFRESH_MS : false),
  });
  // `?run=run_…` (a message's page links here) opens that run's history at once.
  const [open, setOpen] = useState<string | null>(() => initialRun);
  const [stopping, setStopping] = useState<Run | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const next = page.isPlaceholderData ? null : (page.data?.next ?? null);

  return (
    <section className="section" aria-labelledby={`${id}-heading`}>
      <div className="section-head">
        <h2 id={`${id}-heading`}>Runs</h2>
        <div className="header-actions">
          <button
            type="button"
            className="button"
            onClick={() => {
              void page.refetch();
              // The statistics (the canvas's numbers) count the same runs.
              void queryClient.invalidateQueries(trpc.flows.modeStats.queryFilter());
            }}
            disabled={page.isFetching}
          >
            {page.isFetching && !page.isPending ? "Refreshing…" : "Refresh"}
          </button>
        </div>
      </div>
      <div className="filters" role="group" aria-label="Run filters">
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as RunStatus | "");
              pages.restart();
            }}
          >
            <option value="">Any status</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p role="status" className="ok">
        {done ?? ""}
      </p>
      <QueryState query={page} what="the runs" />
      {page.data &&
        (page.data.items.length === 0 && pages.page === 1 ? (
          <p className="empty">
            {status
              ? `No ${status} runs.`
              : flow.definition.trigger
                ? `No runs yet: contacts enter the flow when ${flow.definition.trigger.event} is recorded for them, or through the API's enroll.`
                : "No runs yet: contacts enter the flow through the API's enroll."}
          </p>
        ) : (
          <div className="table-wrap" aria-busy={page.isPlaceholderData}>
            <table aria-label="Runs">
              <thead>
                <tr>
                  <th scope="col">Run</th>
                  <th scope="col">Contact</th>
                  <th scope="col">Status</th>
                  <th scope="col">Mode</th>
                  <th scope="col">Position</th>
                  <th scope="col">Next step</th>
                  <th scope="col">Started</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.data.items.map((run) => (
                  <tr key={run.id}>
                    <th scope="row">
                      <span className="cell-stack">
                        <code>{run.id}</code>
                        {run.key !== null && (
                          <span className="cell-line muted">
                            key <code className="run-key">{run.key}</code>
                          </span>
                        )}
                      </span>
                    </th>
                    <td>
                      <ContactCell workspace={workspace} contactId={run.contact_id} contact={run.contact} />
                    </td>
                    <td>
                      <RunStatusBadge status={run.status} />
                      {run.reason && <span className="muted run-reason"> {run.reason}</span>}
                    </td>
                    <td>{run.mode === "test" ? <span className="badge test">test</span> : <span className="badge live">live</span>}</td>
                    <td>
                      <RunPosition run={run} flow={flow} />
                    </td>
                    <td>
                      {run.status === "active" && run.next_step_at ? (
                        <RelativeTime value={run.next_step_at} />
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </td>
                    <td>
                      <RelativeTime value={run.created_at} />
                    </td>
                    <td>
                      <div className="row-actions">
                        <button
                          type="button"
                          className="button small"
                          aria-label={`History of run ${run.id}`}
                          onClick={() => setOpen(run.id)}
                        >
                          History
                        </button>
                        {canManage && run.status === "active" && (
                          <button
                            type="button"
                            className="button small danger"
                            aria-label={`Unenroll run ${run.id}`}
                            onClick={() => setStopping(run)}
                          >
                            Unenroll…
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      {page.data && (pages.page > 1 || next) && (
        <Pager
          label="Pages of runs"
          page={pages.page}
          hasNext={Boolean(next)}
          onPrevious={pages.previous}
          onNext={() => pages.next(next)}
        />
      )}
      {open && (
        <RunDialog
          workspace={workspace}
          runId={open}
          flow={flow}
          canManage={canManage}
          onUnenroll={(run) => {
            setOpen(null);
            setStopping(run);
          }}
          onClose={() => setOpen(null)}
        />
      )}
      {stopping && (
        <UnenrollDialog
          run={stopping}
          onClose={() => setStopping(null)}
          onStopped={(runId) => {
            setStopping(null);
            setOpen(runId);
            setDone(`Run ${runId} stopped.`);
          }}
        />
      )}
    </section>
  );
}
