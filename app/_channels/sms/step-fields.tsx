"use client";

import type { DashboardChannel, StepContentProps } from "../dashboard-channel.ts";
import { SmsCount } from "./segment-count.tsx";

/** An SMS send step: its body, with its live segment count (D97). */
function SmsStepFields({ id, step, text }: StepContentProps) {
  const body = text("sms.body");
  return (
    <div className="field">
      <label htmlFor={`${id}-sms-body`}>Message</label>
      <textarea
        id={`${id}-sms-body`}
        rows={4}
        {...body}
        aria-describedby={[body["aria-describedby"], `${id}-sms-count`].filter(Boolean).join(" ")}
      />
      <SmsCount id={`${id}-sms-count`} body={step.sms?.body ?? ""} />
    </div>
  );
}

export const smsStep: DashboardChannel["step"] = {
  empty: { sms: { body: "" } },
  texts: { "sms.body": { get: (s) => s.sms?.body, set: (s, body) => ({ ...s, sms: { ...s.sms, body } }) } },
  Fields: SmsStepFields,
};
