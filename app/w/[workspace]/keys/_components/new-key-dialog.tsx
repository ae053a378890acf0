"use client";

import { useState } from "react";
import { Modal } from "@/app/_components/modal.tsx";
import type { CreatedKey } from "./create-key-dialog.tsx";

/** The full key, shown this once (D21): only its hash is stored. */
export function NewKeyDialog({ created, onClose }: { created: CreatedKey; onClose: () => void }) {
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");

  async function onCopy() {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  }

  return (
    <Modal title="API key created" onClose={onClose}>
      <div className="stack">
        <p>
          Your new key <strong>{created.name}</strong> is ready.
        </p>
        <p className="warning">
          Copy it now and keep it somewhere safe: <strong>you will not see it again.</strong> The service stores only a hash of it.
        </p>
        <div className="field">
          <label htmlFor="new-key">Your new API key</label>
          <div className="copy-row">
            <textarea id="new-key" readOnly rows={2} value={created.key} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="button" onClick={onCopy}>
              Copy
            </button>
          </div>
          <p role="status" className="muted">
            {copy === "copied" && "Copied to the clipboard."}
            {copy === "failed" && "Could not copy: select the key and copy it yourself."}
          </p>
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
