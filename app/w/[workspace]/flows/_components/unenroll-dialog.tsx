"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { apiFault } from "@/app/_components/api-error.ts";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { Run } from "./flow-labels.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

/** Stops one active run (`flows.stopRun`), with an optional reason kept on the run. */
export function UnenrollDialog({
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
        <DialogFooter onCancel={onClose} cancelFirst>
          <button type="submit" className="button danger" disabled={stop.isPending}>
            {stop.isPending ? "Unenrolling…" : "Unenroll"}
          </button>
        </DialogFooter>
      </form>
    </Modal>
  );
}
