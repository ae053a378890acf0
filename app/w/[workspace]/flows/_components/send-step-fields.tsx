"use client";

import { useId, useRef, useState } from "react";
import type { SendStep } from "@/server/flows/flow-schemas.ts";
import { MEDIA_TYPES } from "@/server/providers/provider.ts";
import { controlA11y } from "./editor-context.ts";
import type { StepFieldsProps } from "./step-fields.tsx";
import { SmsCount } from "./sms-count.tsx";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";
import { TemplateStepFields, templateOnly } from "./template-step-fields.tsx";

/** D17: what a placeholder can name besides the run's enroll `variables`; D66: the run's key. */
const CONTACT_PLACEHOLDERS = ["name", "phone", "email", "contact_id", "run.key"] as const;

type SendChannel = SendStep["channel"];

/** Each text a send step holds, by the path its errors name (`whatsapp.body`, `email.html`…). */
const TEXTS = {
  "whatsapp.body": {
    get: (s: SendStep) => s.whatsapp?.body,
    set: (s: SendStep, body: string) => ({ ...s, whatsapp: { ...s.whatsapp, body } }),
  },
  "sms.body": { get: (s: SendStep) => s.sms?.body, set: (s: SendStep, body: string) => ({ ...s, sms: { ...s.sms, body } }) },
  "email.subject": {
    get: (s: SendStep) => s.email?.subject,
    set: (s: SendStep, subject: string) => ({ ...s, email: { html: "", ...s.email, subject } }),
  },
  "email.html": {
    get: (s: SendStep) => s.email?.html,
    set: (s: SendStep, html: string) => ({ ...s, email: { subject: "", ...s.email, html } }),
  },
} satisfies Record<string, { get(s: SendStep): string | undefined; set(s: SendStep, text: string): SendStep }>;
type Target = keyof typeof TEXTS;

/** Each channel's empty content, and the text placeholders go to first. */
const CHANNEL_CONTENT: Record<SendChannel, { empty: Partial<SendStep>; target: Target }> = {
  whatsapp: { empty: { whatsapp: { body: "" } }, target: "whatsapp.body" },
  email: { empty: { email: { subject: "", html: "" } }, target: "email.html" },
  sms: { empty: { sms: { body: "" } }, target: "sms.body" },
};

/**
 * `send`: the channel, the WhatsApp body (or media URL and type) and template (with its
 * fallback), the SMS body with its live segment count, or the e-mail's subject and HTML, and placeholder hints that insert `{{key}}` where the cursor was in the last text edited.
 */
export function SendStepFields({ step, onChange, param, errorId, context }: StepFieldsProps<SendStep>) {
  const id = useId();
  const controls = {
    "whatsapp.body": useRef<HTMLTextAreaElement>(null),
    "sms.body": useRef<HTMLTextAreaElement>(null),
    "email.subject": useRef<HTMLInputElement>(null),
    "email.html": useRef<HTMLTextAreaElement>(null),
  };
  const [target, setTarget] = useState<Target>(CHANNEL_CONTENT[step.channel].target);
  const a11y = (at: string) => controlA11y(context, `${param}.${at}`, errorId);
  const keep = step.channel_id ? { channel_id: step.channel_id } : {};

  function setChannel(channel: SendChannel) {
    if (channel === step.channel) return;
    setTarget(CHANNEL_CONTENT[channel].target);
    onChange({ type: "send", channel, ...keep, ...CHANNEL_CONTENT[channel].empty });
  }

  function insert(key: string) {
    // The last text edited, if it is one of this channel's; else the channel's first.
    const where = target.startsWith(`${step.channel}.`) ? target : CHANNEL_CONTENT[step.channel].target;
    const text = TEXTS[where].get(step) ?? "";
    const control = controls[where].current;
    const token = `{{${key}}}`;
    const start = control?.selectionStart ?? text.length;
    const end = control?.selectionEnd ?? text.length;
    onChange(TEXTS[where].set(step, text.slice(0, start) + token + text.slice(end)));
    // After React has written the new value: the cursor goes right after the placeholder.
    requestAnimationFrame(() => {
      control?.focus();
      control?.setSelectionRange(start + token.length, start + token.length);
    });
  }

  const textControl = (at: Target) => ({
    value: TEXTS[at].get(step) ?? "",
    onFocus: () => setTarget(at),
    onChange: (e: { target: { value: string } }) => onChange(TEXTS[at].set(step, e.target.value)),
    ...a11y(at),
  });

  const mediaUrl = step.whatsapp?.media_url;
  return (
    <div className="step-fields">
      <div className="field">
        <label htmlFor={`${id}-channel`}>Channel</label>
        <select id={`${id}-channel`} value={step.channel} onChange={(e) => setChannel(e.target.value as SendChannel)}>
          {Object.entries(CHANNEL_LABEL).map(([channel, label]) => (
            <option key={channel} value={channel}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {step.channel === "whatsapp" && (
        <TemplateStepFields step={step} onChange={onChange} param={param} errorId={errorId} context={context} />
      )}
      {step.channel === "whatsapp" ? (
        !templateOnly(step) && (
          <>
            <div className="field">
              <label htmlFor={`${id}-body`}>Message</label>
              <textarea id={`${id}-body`} rows={3} ref={controls["whatsapp.body"]} {...textControl("whatsapp.body")} />
            </div>
            <div className="field-row">
              <div className="field">
                <label htmlFor={`${id}-media`}>
                  Media URL<span className="muted"> (optional)</span>
                </label>
                <input
                  id={`${id}-media`}
                  type="url"
                  value={mediaUrl ?? ""}
                  placeholder="https://example.com/picture.jpg"
                  onChange={(e) => {
                    const whatsapp: NonNullable<SendStep["whatsapp"]> = { ...step.whatsapp, media_url: e.target.value.trim() };
                    if (!whatsapp.media_url) {
                      delete whatsapp.media_url;
                      delete whatsapp.media_type;
                    }
                    onChange({ ...step, whatsapp });
                  }}
                  {...a11y("whatsapp.media_url")}
                />
              </div>
              {mediaUrl !== undefined && (
                <div className="field">
                  <label htmlFor={`${id}-media-type`}>Media type</label>
                  <select
                    id={`${id}-media-type`}
                    value={step.whatsapp?.media_type ?? ""}
                    onChange={(e) => {
                      const whatsapp = { ...step.whatsapp };
                      if (e.target.value) whatsapp.media_type = e.target.value as (typeof MEDIA_TYPES)[number];
                      else delete whatsapp.media_type;
                      onChange({ ...step, whatsapp });
                    }}
                    {...a11y("whatsapp.media_type")}
                  >
                    <option value="">Choose a type</option>
                    {MEDIA_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {t}
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </div>
          </>
        )
      ) : step.channel === "sms" ? (
        <div className="field">
          <label htmlFor={`${id}-sms-body`}>Message</label>
          <textarea
            id={`${id}-sms-body`}
            rows={4}
            ref={controls["sms.body"]}
            {...textControl("sms.body")}
            aria-describedby={[a11y("sms.body")["aria-describedby"], `${id}-sms-count`].filter(Boolean).join(" ")}
          />
          <SmsCount id={`${id}-sms-count`} body={step.sms?.body ?? ""} />
        </div>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-subject`}>Subject</label>
            <input id={`${id}-subject`} ref={controls["email.subject"]} {...textControl("email.subject")} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-html`}>HTML</label>
            <textarea id={`${id}-html`} rows={5} spellCheck={false} ref={controls["email.html"]} {...textControl("email.html")} />
          </div>
        </>
      )}
      {!context.readOnly && !templateOnly(step) && (
        <div className="placeholders" role="group" aria-label="Placeholders">
          <span className="muted hint">Insert a placeholder:</span>
          {[...new Set([...CONTACT_PLACEHOLDERS, ...context.fields.map((f) => f.key)])].map((key) => (
            <button key={key} type="button" className="button small placeholder" onClick={() => insert(key)}>
              {`{{${key}}}`}
            </button>
          ))}
          <span className="muted hint">
            Enroll variables of the same name come first; a missing value renders empty. <code>{"{{event.<property>}}"}</code> reads the
            event that triggered the run, <code>{"{{wait.<property>}}"}</code> the event a wait received.
          </span>
        </div>
      )}
    </div>
  );
}
