"use client";

import { useQuery } from "@tanstack/react-query";
import { Modal } from "@/app/_components/modal.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import { RunStatusBadge, type FlowDetails, type RunDetails } from "./flow-labels.tsx";
import { ContactCell, RunPosition } from "./run-cells.tsx";
import { RunHistory } from "./run-history.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

/** While a run is active its dialog follows it. */
const REFRESH_MS = 2_000;

type Props = {
  workspace: string;
  runId: string;
  flow: FlowDetails;
  canManage: boolean;
  onUnenroll: (run: RunDetails) => void;
  onClose: () => void;
};

/** One run: its contact, mode, key, where it is, whether it converted, and its history in sentences. */
export function RunDialog({ workspace, runId, flow, canManage, onUnenroll, onClose }: Props) {
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
          <QueryState query={run} what="the run" />
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
                <dt>Key</dt>
                <dd>{r.key !== null ? <code className="run-key">{r.key}</code> : <span className="muted">None</span>}</dd>
                <dt>Version</dt>
                <dd>{r.version}</dd>
                <dt>Position</dt>
                <dd>
                  <RunPosition run={r} flow={flow} />
                </dd>
                <dt>Next step</dt>
                <dd>
                  <When value={r.status === "active" ? r.next_step_at : null} empty="—" />
                </dd>
                <dt>Converted</dt>
                <dd>
                  <When value={r.converted_at} empty={flow.definition.goal ? "Not yet" : "—"} />
                </dd>
                <dt>Reason</dt>
                <dd>{r.reason ?? <span className="muted">—</span>}</dd>
                <dt>Ended</dt>
                <dd>
                  <When value={r.ended_at} empty="—" />
                </dd>
              </dl>
              <h3 className="run-history-heading">History</h3>
              <RunHistory workspace={workspace} run={r} flow={flow} />
            </>
          )}
        </div>
        <DialogFooter>
          {canManage && r?.status === "active" && (
            <button type="button" className="button danger" onClick={() => onUnenroll(r)}>
              Unenroll…
            </button>
          )}
          <button type="button" className="button" onClick={onClose} autoFocus>
            Close
          </button>
        </DialogFooter>
      </div>
    </Modal>
  );
}
