"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/app/_components/link.tsx";
import { useSearchParams } from "next/navigation";
import { useId, useState } from "react";
import { apiFault } from "@/app/_components/api-error.ts";
import { Modal } from "@/app/_components/modal.tsx";
import { useCursorPages } from "@/app/_components/cursor-pages.ts";
import { Pager } from "@/app/_components/pager.tsx";
import { RelativeTime, relativeTime } from "@/app/_components/relative-time.tsx";
import { useWorkspaceTags } from "@/app/_components/use-catalog.ts";
import { useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import { RUN_STATUSES, type RunStatus } from "@/server/flows/flow-schemas.ts";
import {
  positionLabel,
  RunStatusBadge,
  STEP_TYPE_LABEL,
  stepAtPosition,
  type FlowDetails,
  type Run,
  type RunDetails,
} from "./flow-labels.tsx";

const PAGE_SIZE = 25;
/** While runs are active the list follows them. */
const REFRESH_MS = 2_000;

type Props = { workspace: string; flow: FlowDetails; canManage: boolean };

/** The position of a run as a step label, with the step's type when the run is on the flow's current version. */
function Position({ run, flow }: { run: Pick<Run, "position" | "version" | "status">; flow: FlowDetails }) {
  if (run.status === "completed") return <span className="muted">Finished</span>;
  const step = run.version === flow.version ? stepAtPosition(flow.definition.steps, run.position) : undefined;
  return (
    <span className="run-position">
      {positionLabel(run.position)}
      {step ? (
        <span className="muted"> · {step.type}</span>
      ) : run.version !== flow.version ? (
        <span className="muted"> (v{run.version})</span>
      ) : null}
    </span>
  );
}

/** A flow's runs, newest first: a status filter, pages, a run's history, and Unenroll (admins). */
export function RunsSection({ workspace, flow, canManage }: Props) {
  const trpc = useTRPC();
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
          <button type="button" className="button" onClick={() => page.refetch()} disabled={page.isFetching}>
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
      {page.isPending && <p role="status">Loading runs…</p>}
      {page.isError && (
        <p role="alert" className="error">
          Could not load the runs: {apiFault(page.error).message}
        </p>
      )}
      {page.data &&
        (page.data.items.length === 0 && pages.page === 1 ? (
          <p className="empty">{status ? `No ${status} runs.` : "No runs yet: contacts enter the flow through the API's enroll."}</p>
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
                      <code>{run.id}</code>
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
                      <Position run={run} flow={flow} />
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

type Detail = {
  type?: string;
  channel?: string;
  message_id?: string;
  reason?: string;
  took?: string;
  until?: string;
  add?: string[];
  remove?: string[];
  key?: string;
  value?: unknown;
  version?: number;
};

const CHANNEL_NAME: Record<string, string> = { whatsapp: "WhatsApp", email: "e-mail" };

/** A run's history entry in a sentence, its message linked. */
function HistoryText({ kind, detail, workspace }: { kind: string; detail: unknown; workspace: string }) {
  const tags = useWorkspaceTags();
  const d = (detail && typeof detail === "object" ? detail : {}) as Detail;
  const tagNames = (ids: string[] | undefined) => (ids ?? []).map((id) => `“${tags.byId.get(id)?.name ?? id}”`).join(", ");
  const until = d.until ? (
    <>
      <When value={d.until} /> ({relativeTime(d.until)})
    </>
  ) : null;
  switch (kind) {
    case "enrolled":
      return <>Entered the flow{d.version ? ` on version ${d.version}` : ""}.</>;
    case "waiting":
      return <>Waits until {until}.</>;
    case "completed":
      return <>Went through the flow to its end.</>;
    case "stopped":
      return <>Left the flow{d.reason ? `: ${d.reason}` : "."}</>;
    case "failed":
      return <>Failed{d.reason ? `: ${d.reason}` : "."}</>;
    case "skipped":
      return (
        <>
          Skipped the {CHANNEL_NAME[d.channel ?? ""] ?? d.type} message{d.reason ? `: ${d.reason}` : "."}
        </>
      );
  }
  switch (d.type) {
    case "send":
      return (
        <>
          Sent a {CHANNEL_NAME[d.channel ?? ""] ?? ""} message{" "}
          {d.message_id && (
            <Link href={`/w/${encodeURIComponent(workspace)}/messages/${encodeURIComponent(d.message_id)}`}>
              <code>{d.message_id}</code>
            </Link>
          )}
          .
        </>
      );
    case "wait":
      return <>Waited until {until}.</>;
    case "branch":
      return <>Took the “{d.took}” side of the branch.</>;
    case "tag":
      return (
        <>
          {[d.add?.length ? `Added ${tagNames(d.add)}` : "", d.remove?.length ? `Removed ${tagNames(d.remove)}` : ""]
            .filter(Boolean)
            .join("; ")}
          .
        </>
      );
    case "set_field":
      return (
        <>
          Set <code>{d.key}</code> to {d.value === null ? "nothing (removed it)" : `“${String(d.value)}”`}.
        </>
      );
    case "exit":
      return <>Exited the flow here.</>;
    default:
      return <>{kind}</>;
  }
}

/** A run's contact: its name (or address) linked to its page. */
function ContactCell({ workspace, contactId, contact }: { workspace: string; contactId: string; contact: Run["contact"] }) {
  const href = `/w/${encodeURIComponent(workspace)}/contacts/${encodeURIComponent(contactId)}`;
  const address = contact?.phone ?? contact?.email ?? null;
  return (
    <span className="cell-stack">
      <Link href={href}>{contact?.name ?? address ?? contactId}</Link>
      {contact?.name && address && <span className="cell-line nowrap muted">{address}</span>}
    </span>
  );
}

function RunDialog(props: {
  workspace: string;
  runId: string;
  flow: FlowDetails;
  canManage: boolean;
  onUnenroll: (run: RunDetails) => void;
  onClose: () => void;
}) {
  const { workspace, runId, flow, canManage, onUnenroll, onClose } = props;
  const trpc = useTRPC();
  const run = useQuery({
    ...trpc.flows.run.queryOptions({ run_id: runId }),
    refetchInterval: (query) => (query.state.data?.status === "active" ? REFRESH_MS : false),
  });
  const r = run.data;
  return (
    <Modal title={`Run ${runId}`} onClose={onClose}>
      <div className="run-dialog">
        <div className="stack run-dialog-body">
          {run.isPending && <p role="status">Loading the run…</p>}
          {run.isError && (
            <p role="alert" className="error">
              Could not load the run: {apiFault(run.error).message}
            </p>
          )}
          {r && (
            <>
              <dl className="details">
                <dt>Status</dt>
                <dd>
                  <RunStatusBadge status={r.status} />
                </dd>
                <dt>Contact</dt>
                <dd>
                  <ContactCell workspace={workspace} contactId={r.contact_id} contact={r.contact} />
                </dd>
                <dt>Mode</dt>
                <dd>{r.mode}</dd>
                <dt>Version</dt>
                <dd>{r.version}</dd>
                <dt>Position</dt>
                <dd>
                  <Position run={r} flow={flow} />
                </dd>
                <dt>Next step</dt>
                <dd>
                  <When value={r.status === "active" ? r.next_step_at : null} empty="—" />
                </dd>
                <dt>Reason</dt>
                <dd>{r.reason ?? <span className="muted">—</span>}</dd>
                <dt>Ended</dt>
                <dd>
                  <When value={r.ended_at} empty="—" />
                </dd>
              </dl>
              <div className="table-wrap">
                <table aria-label="Run history">
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Position</th>
                      <th scope="col">What happened</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.history.map((h, i) => {
                      const position = Array.isArray(h.position) ? (h.position as (number | string)[]) : null;
                      const type = (h.detail as { type?: string } | null)?.type;
                      return (
                        <tr key={i}>
                          <td>
                            <When value={h.at} />
                          </td>
                          <td>{h.kind}</td>
                          <td>
                            {positionLabel(position)}
                            {type && type in STEP_TYPE_LABEL ? <span className="muted"> · {type}</span> : null}
                          </td>
                          <td className="history-detail">
                            <HistoryText kind={h.kind} detail={h.detail} workspace={workspace} />
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </div>
        <div className="actions">
          {canManage && r?.status === "active" && (
            <button type="button" className="button danger" onClick={() => onUnenroll(r)}>
              Unenroll…
            </button>
          )}
          <button type="button" className="button" onClick={onClose} autoFocus>
            Close
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** Stops one active run (`flows.stopRun`), with an optional reason kept on the run. */
function UnenrollDialog({
  run,
  onClose,
  onStopped,
}: {
  run: Pick<Run, "id" | "contact_id">;
  onClose: () => void;
  onStopped: (runId: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [reason, setReason] = useState("");
  const stop = useMutation(
    trpc.flows.stopRun.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          queryClient.invalidateQueries(trpc.flows.runs.queryFilter()),
          queryClient.invalidateQueries(trpc.flows.run.queryFilter({ run_id: run.id })),
          queryClient.invalidateQueries(trpc.flows.all.queryFilter()),
        ]);
        onStopped(run.id);
      },
    }),
  );
  return (
    <Modal title="Unenroll this contact?" role="alertdialog" onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          stop.mutate({ run_id: run.id, ...(reason.trim() ? { reason: reason.trim() } : {}) });
        }}
      >
        <p>
          The run <code>{run.id}</code> of contact <code>{run.contact_id}</code> stops where it is, as <strong>stopped</strong>, and takes
          no further steps (event <code>fluxo.parado</code>).
        </p>
        <div className="field">
          <label htmlFor={`${id}-reason`}>
            Reason<span className="muted"> (optional)</span>
          </label>
          <input
            id={`${id}-reason`}
            value={reason}
            maxLength={500}
            onChange={(e) => setReason(e.target.value)}
            placeholder="unenrolled from the dashboard"
          />
        </div>
        {stop.isError && (
          <p role="alert" className="error">
            {apiFault(stop.error).message}
          </p>
        )}
        <div className="actions">
          <button type="button" className="button" onClick={onClose} autoFocus>
            Cancel
          </button>
          <button type="submit" className="button danger" disabled={stop.isPending}>
            {stop.isPending ? "Unenrolling…" : "Unenroll"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
