"use client";

import type { ReactNode } from "react";
import { Modal } from "@/app/_components/modal.tsx";
import { errorMessage } from "@/app/_components/trpc.ts";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

type Props = {
  title: string;
  /** What confirming does. */
  children: ReactNode;
  /** The confirm button's text, and its text while the change is under way. */
  confirmLabel: string;
  pendingLabel: string;
  danger?: boolean;
  pending: boolean;
  /** The refusal of the last attempt, if any. */
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
};

/** The confirmation of one change (an endpoint, a flow, a run): what it does, Cancel (focused first) and the change. */
export function ConfirmDialog({ title, children, confirmLabel, pendingLabel, danger = false, pending, error, onConfirm, onClose }: Props) {
  return (
    <Modal title={title} role="alertdialog" onClose={onClose}>
      <div className="stack">
        <p>{children}</p>
        {error ? (
          <p role="alert" className="error">
            {errorMessage(error)}
          </p>
        ) : null}
        <DialogFooter onCancel={onClose} cancelFirst>
          <button type="button" className={danger ? "button danger" : "button primary"} disabled={pending} onClick={onConfirm}>
            {pending ? pendingLabel : confirmLabel}
          </button>
        </DialogFooter>
      </div>
    </Modal>
  );
}
