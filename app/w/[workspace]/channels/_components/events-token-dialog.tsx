"use client";

import { CopyButton } from "@/app/_components/copy-button.tsx";
import { Modal } from "@/app/_components/modal.tsx";
import type { Connected } from "./connect-channel-dialog.tsx";

/** An e-mail channel's events token, shown this once: the service keeps it sealed and never shows it again. */
export function EventsTokenDialog({ connected, onClose }: { connected: Connected; onClose: () => void }) {
  const token = connected.eventsToken ?? "";
  return (
    <Modal title="E-mail channel connected" onClose={onClose}>
      <div className="stack">
        <p>
          <strong>{connected.channel.name}</strong> is connected. Your relay (or a small forwarder of its webhooks) reports deliveries and
          bounces to <code>{connected.channel.callback_url}</code> with this token:
        </p>
        <p className="warning">
          Copy the events token now and keep it somewhere safe: <strong>you will not see it again.</strong> To get a new one, connect the
          channel again.
        </p>
        <div className="field">
          <label htmlFor="events-token">Events token</label>
          <div className="copy-row">
            <textarea id="events-token" readOnly rows={2} value={token} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={token} label="Copy the events token" />
          </div>
          <span className="muted">
            Send it as <code>Authorization: Bearer &lt;token&gt;</code>.
          </span>
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
