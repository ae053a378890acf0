"use client";

import { useId, useState, type FormEvent } from "react";
import { Modal } from "@/app/_components/modal.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

type Props = {
  title: string;
  /** What importing does, shown above the text box. */
  intro: string;
  confirmLabel: string;
  pending: boolean;
  /** The refusal of the last attempt (the server's fault), if any. */
  error: string | null;
  /** The parsed JSON document. */
  onImport: (document: unknown) => void;
  onClose: () => void;
};

/** A D37 document pasted or read from a .json file, parsed here; what happens with it is the caller's. */
export function ImportDialog({ title, intro, confirmLabel, pending, error, onImport, onClose }: Props) {
  const id = useId();
  const [text, setText] = useState("");
  const [local, setLocal] = useState<string | null>(null);

  async function onFile(file: File | undefined) {
    if (!file) return;
    setText(await file.text());
    setLocal(null);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      setLocal(`This is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      setLocal("A flow document is a JSON object with name, allow_reentry and steps.");
      return;
    }
    setLocal(null);
    onImport(parsed);
  }

  const shown = local ?? error;
  return (
    <Modal title={title} onClose={onClose}>
      <form className="stack" onSubmit={onSubmit} noValidate aria-label={title}>
        <p className="muted">{intro}</p>
        <div className="field">
          <label htmlFor={`${id}-text`}>Flow document (JSON)</label>
          <textarea
            id={`${id}-text`}
            rows={12}
            value={text}
            spellCheck={false}
            className="code-input"
            onChange={(e) => setText(e.target.value)}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? `${id}-error` : undefined}
            autoFocus
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-file`}>Or read a file</label>
          <input id={`${id}-file`} type="file" accept="application/json,.json" onChange={(e) => void onFile(e.target.files?.[0])} />
        </div>
        {shown && (
          <p id={`${id}-error`} role="alert" className="error">
            {shown}
          </p>
        )}
        <DialogFooter onCancel={onClose}>
          <button type="submit" className="button primary" disabled={pending || !text.trim()}>
            {pending ? "Importing…" : confirmLabel}
          </button>
        </DialogFooter>
      </form>
    </Modal>
  );
}
