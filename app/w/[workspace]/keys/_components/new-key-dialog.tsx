"use client";

import { SecretRevealDialog } from "@/app/_components/secret-reveal-dialog.tsx";
import type { CreatedKey } from "./create-key-dialog.tsx";

/** The full key, shown this once (D21): only its hash is stored. */
export function NewKeyDialog({ created, onClose }: { created: CreatedKey; onClose: () => void }) {
  return (
    <SecretRevealDialog
      title="API key created"
      intro={
        <p>
          Your new key <strong>{created.name}</strong> is ready.
        </p>
      }
      ifLost="The service stores only a hash of it."
      label="Your new API key"
      copyWhat="the API key"
      value={created.key}
      onClose={onClose}
    />
  );
}
