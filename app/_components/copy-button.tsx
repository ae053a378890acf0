"use client";

import { useState } from "react";

type Props = {
  value: string;
  /** The accessible name, e.g. "Copy the callback URL"; the visible text is "Copy". */
  label: string;
};

/** Copies `value` to the clipboard and says whether it worked, politely. */
export function CopyButton({ value, label }: Props) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  async function onCopy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  }

  return (
    <span className="copy-button">
      <button type="button" className="button small" aria-label={label} onClick={onCopy}>
        Copy
      </button>
      <span role="status" className="muted">
        {state === "copied" && "Copied."}
        {state === "failed" && "Could not copy: select the text and copy it yourself."}
      </span>
    </span>
  );
}
