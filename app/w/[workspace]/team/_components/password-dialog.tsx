"use client";

import { SecretRevealDialog } from "@/app/_components/secret-reveal-dialog.tsx";

export type ShownPassword = { email: string; password: string; reason: "added" | "reset" };

/** A generated password, shown this once: only its hash is stored. */
export function PasswordDialog({ shown, onClose }: { shown: ShownPassword; onClose: () => void }) {
  return (
    <SecretRevealDialog
      title={shown.reason === "added" ? "Member added" : "Password reset"}
      intro={
        <p>
          {shown.reason === "added" ? "A new account was created for " : "The new password of "}
          <strong>{shown.email}</strong>
          {shown.reason === "added" ? ". Their password:" : ":"}
        </p>
      }
      ifLost="Give it to them over a channel you trust."
      label="Password (shown once)"
      copyWhat="the password"
      value={shown.password}
      multiline={false}
      onClose={onClose}
    />
  );
}
