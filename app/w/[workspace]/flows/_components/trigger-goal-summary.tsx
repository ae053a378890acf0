import { conditionWords, matchWords } from "./event-words.ts";
import type { FlowDetails } from "./flow-labels.tsx";

/** What starts the flow (D62) and what counts as its goal (D64), in words, when it has them. */
export function TriggerGoalSummary({ flow }: { flow: FlowDetails }) {
  const { trigger, goal } = flow.definition;
  if (!trigger && !goal) return null;
  const match = goal ? matchWords(goal.match) : "";
  return (
    <section className="section panel" aria-labelledby="trigger-goal-heading">
      <h2 id="trigger-goal-heading">Trigger and goal</h2>
      <dl className="details">
        <dt>Starts when</dt>
        <dd>
          {trigger ? (
            <>
              <code>{trigger.event}</code> is recorded for a contact{trigger.where ? `, where ${conditionWords(trigger.where)}` : ""}
              {flow.status === "active" ? "." : "; only while the flow is active."}
            </>
          ) : (
            <span className="muted">Only when enrolled through the API or from this page.</span>
          )}
        </dd>
        {trigger?.key && (
          <>
            <dt>Run key</dt>
            <dd>
              <code>{trigger.key}</code>
              <span className="muted hint"> One active run per contact and key: the same key while its run is active starts none.</span>
            </dd>
          </>
        )}
        {goal && (
          <>
            <dt>Goal</dt>
            <dd>
              <code>{goal.event}</code> is recorded for the run&apos;s contact{match ? `, where ${match}` : ""}.
            </dd>
            <dt>On reaching it</dt>
            <dd>
              {goal.exit === false
                ? "The run counts a conversion and goes on with its steps."
                : "The run counts a conversion and ends at once, as completed; its pending step never runs."}
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
