/** The error of one form control; the control names it in its `aria-describedby`. */
export function FieldError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error">
      {message}
    </p>
  );
}

type FooterProps = {
  label: string;
  pending: boolean;
  /** An error that names no control of the form. */
  error: string | null;
  /** What the last submission did, announced politely. */
  done: string | null;
};

/** The submit button of an inline create form, its general error and its outcome. */
export function CreateFormFooter({ label, pending, error, done }: FooterProps) {
  return (
    <>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={pending}>
          {pending ? "Creating…" : label}
        </button>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p role="status" className="ok">
        {done ?? ""}
      </p>
    </>
  );
}
