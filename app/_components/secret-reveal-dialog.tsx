"use client";

import { useId, type ReactNode } from "react";
import { CopyButton } from "./copy-button.tsx";
import { DialogFooter } from "./dialog-footer.tsx";
import { Modal } from "./modal.tsx";

type Props = {
  title: string;
  /** What the secret is for, before the warning. */
  intro: ReactNode;
  /** After "you will not see it again.": what to do if it is lost. */
  ifLost?: ReactNode;
  /** The field's label, e.g. "Signing secret". */
  label: string;
  /** What Copy copies, said in full for screen readers: "the signing secret". */
  copyWhat: string;
  value: string;
  /** A one-line secret (a password) or a long one that wraps (a key, a token). */
  multiline?: boolean;
  /** Under the field: how to use it. */
  hint?: ReactNode;
  /** Between the warning and the field. */
  children?: ReactNode;
  onClose: () => void;
};

/** A secret the service shows this once (API keys, passwords, webhook secrets, events tokens): only a hash or a sealed copy is kept. */
export function SecretRevealDialog({ title, intro, ifLost, label, copyWhat, value, multiline = true, hint, children, onClose }: Props) {
  const id = useId();
  const select = (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => e.currentTarget.select();
  return (
    <Modal title={title} onClose={onClose}>
      <div className="stack">
        {intro}
        <p className="warning">
          Copy it now and keep it somewhere safe: <strong>you will not see it again.</strong>
          {ifLost ? <> {ifLost}</> : null}
        </p>
        {children}
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <div className="copy-row">
            {multiline ? (
              <textarea id={id} readOnly rows={2} value={value} spellCheck={false} onFocus={select} />
            ) : (
              <input id={id} readOnly value={value} spellCheck={false} onFocus={select} />
            )}
            <CopyButton value={value} label={`Copy ${copyWhat}`} />
          </div>
          {hint && <span className="muted">{hint}</span>}
        </div>
        <DialogFooter>
          <button type="button" className="button primary" onClick={onClose}>
            Done
          </button>
        </DialogFooter>
      </div>
    </Modal>
  );
}
