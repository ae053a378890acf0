"use client";

import { useId, useRef, useState } from "react";
import type { SendStep } from "@/server/flows/flow-schemas.ts";
import { DASHBOARD_CHANNELS } from "@/app/_channels/channels.ts";
import { controlA11y } from "./editor-context.ts";
import type { StepFieldsProps } from "./step-fields.tsx";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";

/** D17: what a placeholder can name besides the run's enroll `variables`; D66: the run's key. */
const CONTACT_PLACEHOLDERS = ["name", "phone", "email", "contact_id", "run.key"] as const;

type SendChannel = SendStep["channel"];

/** The text placeholders go to first on a channel: its first. */
const firstText = (channel: SendChannel) => Object.keys(DASHBOARD_CHANNELS[channel].step.texts)[0]!;

/**
 * `send`: the channel, its content's fields (its dashboard part, app/_channels/<type>/step-fields.tsx:
 * WhatsApp's body or media and template, the SMS body with its live segment count, the
 * e-mail's subject and HTML), and placeholder hints that insert `{{key}}` where the cursor was
 * in the last text edited.
 */
export function SendStepFields(props: StepFieldsProps<SendStep>) {
  const { step, onChange, param, errorId, context } = props;
  const id = useId();
  const controls = useRef(new Map<string, HTMLInputElement | HTMLTextAreaElement>());
  const [target, setTarget] = useState(firstText(step.channel));
  const a11y = (at: string) => controlA11y(context, `${param}.${at}`, errorId);
  const keep = step.channel_id ? { channel_id: step.channel_id } : {};
  const channel = DASHBOARD_CHANNELS[step.channel].step;

  function setChannel(type: SendChannel) {
    if (type === step.channel) return;
    setTarget(firstText(type));
    onChange({ type: "send", channel: type, ...keep, ...DASHBOARD_CHANNELS[type].step.empty });
  }

  function insert(key: string) {
    // The last text edited, if it is one of this channel's; else the channel's first.
    const where = channel.texts[target] ? target : firstText(step.channel);
    const text = channel.texts[where]!.get(step) ?? "";
    const control = controls.current.get(where);
    const token = `{{${key}}}`;
    const start = control?.selectionStart ?? text.length;
    const end = control?.selectionEnd ?? text.length;
    onChange(channel.texts[where]!.set(step, text.slice(0, start) + token + text.slice(end)));
    // After React has written the new value: the cursor goes right after the placeholder.
    requestAnimationFrame(() => {
      control?.focus();
      control?.setSelectionRange(start + token.length, start + token.length);
    });
  }

  const text = (at: string) => ({
    value: channel.texts[at]!.get(step) ?? "",
    onFocus: () => setTarget(at),
    onChange: (e: { target: { value: string } }) => onChange(channel.texts[at]!.set(step, e.target.value)),
    ref: (element: HTMLInputElement | HTMLTextAreaElement | null) => {
      if (element) controls.current.set(at, element);
      else controls.current.delete(at);
    },
    ...a11y(at),
  });

  return (
    <div className="step-fields">
      <div className="field">
        <label htmlFor={`${id}-channel`}>Channel</label>
        <select id={`${id}-channel`} value={step.channel} onChange={(e) => setChannel(e.target.value as SendChannel)}>
          {Object.entries(CHANNEL_LABEL).map(([type, label]) => (
            <option key={type} value={type}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <channel.Fields {...props} id={id} text={text} a11y={a11y} />
      {!context.readOnly && (channel.takesPlaceholders?.(step) ?? true) && (
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
