"use client";

import { useId } from "react";
import { MESSAGE_OUTCOMES, type MessageOutcome, type WaitForStep } from "@/server/flows/flow-schemas.ts";
import { controlA11y } from "./editor-context.ts";
import { MatchFields } from "./match-fields.tsx";
import { MESSAGE_WAIT_WORDS } from "./step-summary.ts";
import { DurationField, type StepFieldsProps } from "./step-fields.tsx";

const TIMEOUT_PRESETS = [
  { duration: "PT1H", label: "1 hour" },
  { duration: "P1D", label: "1 day" },
  { duration: "P3D", label: "3 days" },
  { duration: "P7D", label: "1 week" },
  { duration: "P30D", label: "30 days" },
] as const;

const LOOKBACK_PRESETS = [
  { duration: "PT1H", label: "1 hour" },
  { duration: "P1D", label: "1 day" },
  { duration: "P7D", label: "7 days" },
] as const;

/** A wait_for step in the document's order, without the parts left empty (its paths drawn by the card). */
function waitFor(s: WaitForStep): WaitForStep {
  return {
    type: "wait_for",
    ...(s.message !== undefined ? { message: s.message } : { event: s.event ?? "" }),
    ...(s.match && s.message === undefined ? { match: s.match } : {}),
    timeout: s.timeout,
    ...(s.lookback && s.message === undefined ? { lookback: s.lookback } : {}),
    on_event: s.on_event,
    on_timeout: s.on_timeout,
  };
}

/**
 * `wait_for` (D63): an event of the contact (its name, a match on its properties, a lookback)
 * or an outcome of the run's latest message, and the timeout; its two paths are drawn below it.
 */
export function WaitForStepFields({ step, onChange, param, errorId, context }: StepFieldsProps<WaitForStep>) {
  const id = useId();
  const byEvent = step.message === undefined;
  const set = (next: Partial<WaitForStep>) => onChange(waitFor({ ...step, ...next }));
  return (
    <div className="step-fields">
      <fieldset>
        <legend>Wait for</legend>
        <label className="choice">
          <input type="radio" name={`${id}-kind`} checked={byEvent} onChange={() => set({ message: undefined, event: "" })} />
          An event of the contact
        </label>
        <label className="choice">
          <input type="radio" name={`${id}-kind`} checked={!byEvent} onChange={() => set({ message: "read", event: undefined })} />
          An outcome of the last message this run sent
        </label>
      </fieldset>
      {byEvent ? (
        <>
          <div className="field">
            <label htmlFor={`${id}-event`}>Event name</label>
            <input
              id={`${id}-event`}
              value={step.event ?? ""}
              placeholder="order_paid"
              spellCheck={false}
              onChange={(e) => set({ event: e.target.value.trim() })}
              {...controlA11y(context, `${param}.event`, errorId)}
            />
          </div>
          <MatchFields
            label="Match"
            match={step.match}
            onChange={(match) => set({ match: match ?? undefined })}
            param={`${param}.match`}
            errorId={errorId}
            context={context}
          />
          <DurationField
            label="Lookback (optional)"
            value={step.lookback ?? ""}
            words={(w) => `An event up to ${w} before the wait began counts.`}
            presets={LOOKBACK_PRESETS}
            onChange={(lookback) => set({ lookback: lookback || undefined })}
            a11y={controlA11y(context, `${param}.lookback`, errorId)}
            readOnly={context.readOnly}
            hint="At most 7 days. Empty: only events recorded after the wait began."
            placeholder="None"
          />
        </>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-outcome`}>Outcome</label>
          <select
            id={`${id}-outcome`}
            value={step.message}
            onChange={(e) => set({ message: e.target.value as MessageOutcome })}
            {...controlA11y(context, `${param}.message`, errorId)}
          >
            {MESSAGE_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {MESSAGE_WAIT_WORDS[o].replace(/^Wait for /, "")}
              </option>
            ))}
          </select>
          <span className="muted hint">The message of this run&apos;s latest send step; with none, the timeout path runs at once.</span>
        </div>
      )}
      <DurationField
        label="Timeout"
        value={step.timeout}
        words={(w) => `Gives up after ${w}.`}
        presets={TIMEOUT_PRESETS}
        onChange={(timeout) => set({ timeout })}
        a11y={controlA11y(context, `${param}.timeout`, errorId)}
        readOnly={context.readOnly}
        hint="At most 90 days (ISO 8601: P1D is a day, PT12H twelve hours)."
      />
    </div>
  );
}
