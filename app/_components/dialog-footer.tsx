import type { ReactNode } from "react";

type Props = {
  /** A Cancel button before the others, when the dialog can be left without acting. */
  onCancel?: () => void;
  cancelLabel?: string;
  /** Focus Cancel first (confirmations of something that cannot be undone). */
  cancelFirst?: boolean;
  children?: ReactNode;
};

/** Every dialog's row of buttons: Cancel (if any) then the action, in one place and one order. */
export function DialogFooter({ onCancel, cancelLabel = "Cancel", cancelFirst, children }: Props) {
  return (
    <div className="actions">
      {onCancel && (
        <button type="button" className="button" onClick={onCancel} autoFocus={cancelFirst}>
          {cancelLabel}
        </button>
      )}
      {children}
    </div>
  );
}
