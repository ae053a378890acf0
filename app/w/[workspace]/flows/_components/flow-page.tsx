"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/app/_components/link.tsx";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { apiFault } from "@/app/_components/api-error.ts";
import { ConfirmDialog } from "@/app/_components/confirm-dialog.tsx";
import { CopyButton } from "@/app/_components/copy-button.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { FlowStatus } from "@/server/flows/flow-schemas.ts";
import { FlowEditor } from "./flow-editor.tsx";
import { FlowStatusBadge, type FlowDetails } from "./flow-labels.tsx";
import { EnrollSection, EnrollSnippet } from "./enroll-section.tsx";
import { RunsSection } from "./runs-section.tsx";
import { FlowStatsView } from "./flow-stats.tsx";
import { TriggerGoalSummary } from "./trigger-goal-summary.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

type Props = {
  workspace: string;
  flowId: string | null;
  canManage: boolean;
  /** The public API's base URL (APP_URL and /api/v1), for the enroll command. */
  apiBaseUrl: string;
};

/** A flow's page (or a new flow's): its status and lifecycle buttons, the editor, and its runs. */
export function FlowPage({ workspace, flowId, canManage, apiBaseUrl }: Props) {
  const list = `/w/${encodeURIComponent(workspace)}/flows`;
  const back = (
    <Link href={list} className="back-link">
      ← All flows
    </Link>
  );
  if (!flowId) {
    return (
      <>
        {back}
        <div className="page-header">
          <div>
            <h1>New flow</h1>
            <p className="muted">Build the journey step by step, then create it as a draft and activate it when it is ready.</p>
          </div>
        </div>
        <FlowEditor workspace={workspace} flow={null} canManage={canManage} />
      </>
    );
  }
  return <SavedFlow workspace={workspace} flowId={flowId} canManage={canManage} back={back} apiBaseUrl={apiBaseUrl} />;
}

function SavedFlow({
  workspace,
  flowId,
  canManage,
  back,
  apiBaseUrl,
}: {
  workspace: string;
  flowId: string;
  canManage: boolean;
  back: React.ReactNode;
  apiBaseUrl: string;
}) {
  const trpc = useTRPC();
  const flow = useQuery(trpc.flows.get.queryOptions({ flow_id: flowId }));
  const created = useSearchParams().get("created") === "1";
  const [dirty, setDirty] = useState(false);
  const [done, setDone] = useState<string | null>(created ? "Flow created as a draft." : null);
  if (flow.isPending || flow.isError) {
    return (
      <>
        {back}
        <QueryState query={flow} what="the flow" />
      </>
    );
  }
  const f = flow.data;
  return (
    <>
      {back}
      <div className="page-header">
        <div>
          <h1>{f.name}</h1>
          <p className="flow-meta">
            <FlowStatusBadge status={f.status} /> <span>Version {f.version}</span> <code>{f.id}</code>
            <CopyButton value={f.id} label="Copy the flow ID" />
          </p>
        </div>
        {canManage && <StatusActions flow={f} dirty={dirty} onDone={setDone} />}
      </div>
      {!canManage && (
        <p className="note">
          You have read-only access to this workspace&apos;s flows. Ask an admin to change a flow or unenroll a contact.
        </p>
      )}
      <p role="status" className="ok">
        {done ?? ""}
      </p>
      <TriggerGoalSummary flow={f} />
      <FlowEditor key={f.id} workspace={workspace} flow={f} canManage={canManage} onDirty={setDirty} />
      <FlowStatsView flowId={f.id} current={{ version: f.version, steps: f.definition.steps }} />
      {canManage && <EnrollSection flow={f} />}
      <EnrollSnippet flowId={f.id} baseUrl={apiBaseUrl} />
      <RunsSection workspace={workspace} flow={f} canManage={canManage} />
    </>
  );
}

/** D6's moves from each status: draft → active ↔ paused → archived (final). */
const MOVES: Record<FlowStatus, { to: FlowStatus; label: string }[]> = {
  draft: [
    { to: "active", label: "Activate" },
    { to: "archived", label: "Archive…" },
  ],
  active: [
    { to: "paused", label: "Pause" },
    { to: "archived", label: "Archive…" },
  ],
  paused: [
    { to: "active", label: "Resume" },
    { to: "archived", label: "Archive…" },
  ],
  archived: [],
};

const DONE: Record<FlowStatus, string> = {
  draft: "The flow is a draft.",
  active: "The flow is active: it accepts enrollments.",
  paused: "The flow is paused: its runs wait where they are until it is resumed.",
  archived: "The flow is archived; its active runs were stopped.",
};

function StatusActions({ flow, dirty, onDone }: { flow: FlowDetails; dirty: boolean; onDone: (message: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const all = useQuery(trpc.flows.all.queryOptions());
  const active = all.data?.find((f) => f.id === flow.id)?.runs.active ?? 0;
  const [archiving, setArchiving] = useState(false);
  const setStatus = useMutation(
    trpc.flows.setStatus.mutationOptions({
      onSuccess: async (answer) => {
        setArchiving(false);
        await Promise.all([
          queryClient.invalidateQueries(trpc.flows.get.queryFilter({ flow_id: flow.id })),
          queryClient.invalidateQueries(trpc.flows.all.queryFilter()),
          queryClient.invalidateQueries(trpc.flows.runs.queryFilter()),
        ]);
        onDone(DONE[answer.status]);
      },
    }),
  );
  const moves = MOVES[flow.status];
  if (moves.length === 0) return null;
  return (
    <div className="header-actions status-actions" role="group" aria-label="Flow status">
      {moves.map((m) => (
        <button
          key={m.to}
          type="button"
          // Archiving is final and rare: a quiet button at the end (it asks first), not the page's loudest.
          className={m.to === "archived" ? "button quiet" : m.to === "active" ? "button primary" : "button"}
          disabled={setStatus.isPending || (m.to === "active" && dirty)}
          title={m.to === "active" && dirty ? "Save your changes first" : undefined}
          onClick={() => (m.to === "archived" ? setArchiving(true) : setStatus.mutate({ flow_id: flow.id, status: m.to }))}
        >
          {m.label}
        </button>
      ))}
      {dirty && moves.some((m) => m.to === "active") && <span className="muted hint">Save your changes before activating.</span>}
      {setStatus.isError && !archiving && (
        <p role="alert" className="error-text">
          {apiFault(setStatus.error).message}
        </p>
      )}
      {archiving && (
        <ConfirmDialog
          title="Archive this flow?"
          confirmLabel="Archive flow"
          pendingLabel="Archiving…"
          danger
          pending={setStatus.isPending}
          error={setStatus.error}
          onConfirm={() => setStatus.mutate({ flow_id: flow.id, status: "archived" })}
          onClose={() => {
            setArchiving(false);
            setStatus.reset();
          }}
        >
          Archiving “{flow.name}” is final. It stops {active === 1 ? "its 1 active run" : `its ${active} active runs`} (reason “flow
          archived”), no contact can be enrolled any more, and the flow can no longer be edited or activated.
        </ConfirmDialog>
      )}
    </div>
  );
}
