"use client";

import { Link } from "@/app/_components/link.tsx";
import { CopyButton } from "@/app/_components/copy-button.tsx";
import { Modal } from "@/app/_components/modal.tsx";
import { When } from "@/app/_components/when.tsx";

type Props = {
  title: string;
  url: string;
  secret: string;
  /** After a rotation: when the secret it replaced stops being valid (D32). */
  previousExpiresAt?: string;
  onClose: () => void;
};

/** An endpoint's signing secret, shown this once (D30, D32): the service keeps it sealed and never shows it again. */
export function SecretDialog({ title, url, secret, previousExpiresAt, onClose }: Props) {
  return (
    <Modal title={title} onClose={onClose}>
      <div className="stack">
        <p>
          Deliveries to <code className="wrap-anywhere">{url}</code> are signed with this secret: the <code>X-svc-Signature</code> header
          carries an HMAC-SHA256 of <code>&lt;t&gt;.&lt;raw body&gt;</code> keyed with it. See{" "}
          <Link href="/docs/webhooks" target="_blank">
            Verify webhook signatures
          </Link>
          .
        </p>
        <p className="warning">
          Copy the signing secret now and keep it somewhere safe: <strong>you will not see it again.</strong> If you lose it, rotate the
          secret.
        </p>
        {previousExpiresAt && (
          <p>
            The previous secret stays valid until <When value={previousExpiresAt} />: until then every delivery carries a signature with
            each secret, so update your receiver before that.
          </p>
        )}
        <div className="field">
          <label htmlFor="webhook-secret">Signing secret</label>
          <div className="copy-row">
            <textarea id="webhook-secret" readOnly rows={2} value={secret} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={secret} label="Copy the signing secret" />
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
