"use client";

import { CopyButton } from "@/app/_components/copy-button.tsx";
import { Modal } from "@/app/_components/modal.tsx";

export type ShownPassword = { email: string; password: string; reason: "added" | "reset" };

/** A generated password, shown this once: only its hash is stored. */
export function PasswordDialog({ shown, onClose }: { shown: ShownPassword; onClose: () => void }) {
  return (
    <Modal title={shown.reason === "added" ? "Member added" : "Password reset"} onClose={onClose}>
      <div className="stack">
        <p>
          {shown.reason === "added" ? "A new account was created for " : "The new password of "}
          <strong>{shown.email}</strong>
          {shown.reason === "added" ? ". Their password:" : ":"}
        </p>
        <p className="warning">
          Give it to them over a channel you trust: <strong>you will not see it again.</strong>
        </p>
        <div className="field">
          <label htmlFor="one-time-password">Password (shown once)</label>
          <div className="copy-row">
            <input id="one-time-password" readOnly value={shown.password} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={shown.password} label="Copy the password" />
          </div>
        </div>
        <div className="actions">
          <button type="button" className="button primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </Modal>
  );
}
