"use client";

import { useId, useRef, useState } from "react";
import type { SendStep } from "@/server/flows/flow-schemas.ts";
import { MEDIA_TYPES } from "@/server/messaging/message-schemas.ts";
import { controlA11y } from "./editor-context.ts";
import type { StepFieldsProps } from "./step-fields.tsx";
import { TemplateStepFields, templateOnly } from "./template-step-fields.tsx";

/** D17: what a placeholder can name besides the run's enroll `variables`; D66: the run's key. */
const CONTACT_PLACEHOLDERS = ["name", "phone", "email", "contact_id", "run.key"] as const;

type Target = "body" | "subject" | "html";
type TextControl = HTMLInputElement | HTMLTextAreaElement;

/** A send step with the text of `target` replaced. */
function withText(step: SendStep, target: Target, text: string): SendStep {
  if (target === "body") return { ...step, whatsapp: { ...step.whatsapp, body: text } };
  return { ...step, email: { ...step.email, [target]: text } };
}

function textOf(step: SendStep, target: Target): string {
  return (target === "body" ? step.whatsapp?.body : step.email?.[target]) ?? "";
}

/**
 * `send`: the channel, the WhatsApp body (or media URL and type) and template (with its
 * fallback) or the e-mail's subject and HTML, and placeholder hints that insert `{{key}}` where the cursor was in the last text edited.
 */
export function SendStepFields({ step, onChange, param, errorId, context }: StepFieldsProps<SendStep>) {
  const id = useId();
  const body = useRef<HTMLTextAreaElement>(null);
  const subject = useRef<HTMLInputElement>(null);
  const html = useRef<HTMLTextAreaElement>(null);
  const [target, setTarget] = useState<Target>(step.channel === "email" ? "html" : "body");
  const a11y = (at: string) => controlA11y(context, `${param}.${at}`, errorId);
  const keep = step.channel_id ? { channel_id: step.channel_id } : {};

  function setChannel(channel: "whatsapp" | "email") {
    if (channel === step.channel) return;
    setTarget(channel === "email" ? "html" : "body");
    onChange(
      channel === "whatsapp"
        ? { type: "send", channel, ...keep, whatsapp: { body: "" } }
        : { type: "send", channel, ...keep, email: { subject: "", html: "" } },
    );
  }

  function insert(key: string) {
    const where = step.channel === "email" ? (target === "body" ? "html" : target) : "body";
    const text = textOf(step, where);
    const control: TextControl | null = { body, subject, html }[where].current;
    const token = `{{${key}}}`;
    const start = control?.selectionStart ?? text.length;
    const end = control?.selectionEnd ?? text.length;
    onChange(withText(step, where, text.slice(0, start) + token + text.slice(end)));
    // After React has written the new value: the cursor goes right after the placeholder.
    requestAnimationFrame(() => {
      control?.focus();
      control?.setSelectionRange(start + token.length, start + token.length);
    });
  }

  const textControl = (at: Target) => ({
    value: textOf(step, at),
    onFocus: () => setTarget(at),
    onChange: (e: { target: { value: string } }) => onChange(withText(step, at, e.target.value)),
  });

  const mediaUrl = step.whatsapp?.media_url;
  return (
    <div className="step-fields">
      <div className="field">
        <label htmlFor={`${id}-channel`}>Channel</label>
        <select id={`${id}-channel`} value={step.channel} onChange={(e) => setChannel(e.target.value as "whatsapp" | "email")}>
          <option value="whatsapp">WhatsApp</option>
          <option value="email">E-mail</option>
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
              <textarea id={`${id}-body`} rows={3} ref={body} {...textControl("body")} {...a11y("whatsapp.body")} />
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
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-subject`}>Subject</label>
            <input id={`${id}-subject`} ref={subject} {...textControl("subject")} {...a11y("email.subject")} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-html`}>HTML</label>
            <textarea id={`${id}-html`} rows={5} spellCheck={false} ref={html} {...textControl("html")} {...a11y("email.html")} />
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
