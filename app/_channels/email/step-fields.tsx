"use client";

import type { DashboardChannel, StepContentProps } from "../dashboard-channel.ts";

/** An e-mail send step: its subject and HTML. */
function EmailStepFields({ id, text }: StepContentProps) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-subject`}>Subject</label>
        <input id={`${id}-subject`} {...text("email.subject")} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-html`}>HTML</label>
        <textarea id={`${id}-html`} rows={5} spellCheck={false} {...text("email.html")} />
      </div>
    </>
  );
}

export const emailStep: DashboardChannel["step"] = {
  empty: { email: { subject: "", html: "" } },
  // The HTML first: placeholders go there until the subject is edited.
  texts: {
    "email.html": { get: (s) => s.email?.html, set: (s, html) => ({ ...s, email: { subject: "", ...s.email, html } }) },
    "email.subject": { get: (s) => s.email?.subject, set: (s, subject) => ({ ...s, email: { html: "", ...s.email, subject } }) },
  },
  Fields: EmailStepFields,
};
