"use client";

import type { Trigger } from "@/server/flows/flow-schemas.ts";
import { ConditionFields } from "./condition-fields.tsx";
import { controlA11y, type EditorContext } from "./editor-context.ts";
import { EditorPanel } from "./editor-panel.tsx";

/** A trigger in the document's order (event, where, key), without the parts left empty. */
const triggerOf = ({ event, where, key }: Trigger): Trigger => ({ event, ...(where ? { where } : {}), ...(key?.trim() ? { key } : {}) });

type Props = { trigger: Trigger | undefined; onChange: (trigger: Trigger | undefined) => void; context: EditorContext };

/** D62: the event that enrolls contacts, conditions on its properties, and the run's key. */
export function TriggerPanel({ trigger, onChange, context }: Props) {
  return (
    <EditorPanel
      title="Trigger"
      param="trigger"
      enabled={trigger !== undefined}
      toggleLabel="Start a run when an event is recorded for a contact"
      onToggle={(on) => onChange(on ? { event: "" } : undefined)}
      context={context}
    >
      {(errorId) =>
        trigger && (
          <>
            <div className="field">
              <label htmlFor={`${errorId}-event`}>Event name</label>
              <input
                id={`${errorId}-event`}
                value={trigger.event}
                placeholder="cart_abandoned"
                spellCheck={false}
                onChange={(e) => onChange({ ...trigger, event: e.target.value.trim() })}
                {...controlA11y(context, "trigger.event", errorId)}
              />
              <span className="muted hint">As your systems send it to POST /events: lowercase letters, digits, _ and .</span>
            </div>
            <ConditionFields
              where={trigger.where}
              onChange={(where) => onChange(triggerOf({ ...trigger, where }))}
              errorId={errorId}
              context={context}
            />
            <div className="field">
              <label htmlFor={`${errorId}-key`}>
                Run key<span className="muted"> (optional)</span>
              </label>
              <input
                id={`${errorId}-key`}
                value={trigger.key ?? ""}
                placeholder="{{event.cart_id}}"
                spellCheck={false}
                onChange={(e) => onChange(triggerOf({ ...trigger, key: e.target.value }))}
                {...controlA11y(context, "trigger.key", errorId)}
              />
              <span className="muted hint">
                A contact has one active run per key, so each cart or invoice gets its own. <code>{"{{event.<property>}}"}</code> reads the
                event; steps read the key as <code>{"{{run.key}}"}</code>.
              </span>
            </div>
          </>
        )
      }
    </EditorPanel>
  );
}
