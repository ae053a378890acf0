"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";

type Props = {
  title: string;
  /** Closing by Escape or by a button: the parent unmounts the modal. */
  onClose: () => void;
  /** `alertdialog` for confirmations of something that cannot be undone. */
  role?: "dialog" | "alertdialog";
  /** Wider, for a table (a save's preview of the people in a journey). */
  wide?: boolean;
  children: ReactNode;
};

/**
 * A modal dialog on the native <dialog> element: focus is moved into it and kept there,
 * Escape closes it, and the page behind it is inert. Render it only while it is open.
 * Closing it returns focus to the element that opened it: React removes the <dialog> before
 * the effect's cleanup runs, and a detached dialog's close() restores nothing, so the opener
 * is remembered here and focused again (when it is still on the page).
 */
export function Modal({ title, onClose, role = "dialog", wide = false, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      className={wide ? "modal wide" : "modal"}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
