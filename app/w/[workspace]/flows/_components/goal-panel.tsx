"use client";

import type { Goal } from "@/server/flows/flow-schemas.ts";
import { controlA11y, type EditorContext } from "./editor-context.ts";
import { EditorPanel } from "./editor-panel.tsx";
import { MatchFields } from "./match-fields.tsx";

type Props = { goal: Goal | undefined; onChange: (goal: Goal | undefined) => void; context: EditorContext };

/** D64: the event that counts as the flow's conversion, what it must match, and whether it ends the run. */
export function GoalPanel({ goal, onChange, context }: Props) {
  return (
    <EditorPanel
      title="Goal"
      param="goal"
      enabled={goal !== undefined}
      toggleLabel="Count a conversion when an event is recorded for the run's contact"
      onToggle={(on) => onChange(on ? { event: "", exit: true } : undefined)}
      context={context}
    >
      {(errorId) =>
        goal && (
          <>
            <div className="field">
              <label htmlFor={`${errorId}-event`}>Goal event</label>
              <input
                id={`${errorId}-event`}
                value={goal.event}
                placeholder="order_paid"
                spellCheck={false}
                onChange={(e) => onChange({ ...goal, event: e.target.value.trim() })}
                {...controlA11y(context, "goal.event", errorId)}
              />
            </div>
            <MatchFields
              label="Match of the goal"
              match={goal.match}
              onChange={(match) => onChange({ event: goal.event, ...(match ? { match } : {}), exit: goal.exit })}
              param="goal.match"
              errorId={errorId}
              context={context}
            />
            <label className="choice">
              <input type="checkbox" checked={goal.exit !== false} onChange={(e) => onChange({ ...goal, exit: e.target.checked })} />
              End the run when the goal is reached (its pending step never runs)
            </label>
          </>
        )
      }
    </EditorPanel>
  );
}
