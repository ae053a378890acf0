"use client";

import { Link } from "@/app/_components/link.tsx";
import { SecretRevealDialog } from "@/app/_components/secret-reveal-dialog.tsx";
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
    <SecretRevealDialog
      title={title}
      intro={
        <p>
          Deliveries to <code className="wrap-anywhere">{url}</code> are signed with this secret: the <code>X-svc-Signature</code> header
          carries an HMAC-SHA256 of <code>&lt;t&gt;.&lt;raw body&gt;</code> keyed with it. See{" "}
          <Link href="/docs/webhooks" target="_blank">
            Verify webhook signatures
          </Link>
          .
        </p>
      }
      ifLost="If you lose it, rotate the secret."
      label="Signing secret"
      copyWhat="the signing secret"
      value={secret}
      onClose={onClose}
    >
      {previousExpiresAt && (
        <p>
          The previous secret stays valid until <When value={previousExpiresAt} />: until then every delivery carries a signature with each
          secret, so update your receiver before that.
        </p>
      )}
    </SecretRevealDialog>
  );
}
