"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFault } from "@/app/_components/api-error.ts";
import { isoDurationWords } from "@/app/_components/duration.ts";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { Step } from "@/server/flows/flow-schemas.ts";
import { MESSAGE_WAIT_WORDS, positionLabel, STEP_TYPE_LABEL, type FlowDetails } from "./flow-labels.tsx";

const REFRESH_MS = 5_000;

type Position = (number | string)[];

/** Every step of a document in reading order, the paths of a branch or a wait_for after it. */
function allSteps(steps: Step[], base: Position = []): { position: Position; step: Step }[] {
  return steps.flatMap((step, i) => {
    const position = [...base, i];
    const own = { position, step };
    if (step.type === "branch") return [own, ...allSteps(step.then, [...position, "then"]), ...allSteps(step.else, [...position, "else"])];
    if (step.type === "wait_for") {
      return [own, ...allSteps(step.on_event, [...position, "on_event"]), ...allSteps(step.on_timeout, [...position, "on_timeout"])];
    }
    return [own];
  });
}

/** A step in a few words: "Wait 5 minutes", "Send a message (WhatsApp)". */
export function stepWords(step: Step): string {
  switch (step.type) {
    case "wait":
      return step.duration ? `Wait ${isoDurationWords(step.duration)}` : "Wait until a date";
    case "send":
      return `Send a message (${step.channel === "whatsapp" ? "WhatsApp" : "e-mail"})`;
    case "wait_for":
      return `${step.message ? MESSAGE_WAIT_WORDS[step.message] : `Wait for ${step.event}`}, at most ${isoDurationWords(step.timeout)}`;
    default:
      return STEP_TYPE_LABEL[step.type];
  }
}

/** Per step of the flow's current version: the runs that passed it, wait in it, or left the flow there. */
export function StepCounts({ flow }: { flow: FlowDetails }) {
  const trpc = useTRPC();
  const counts = useQuery({
    ...trpc.flows.stepCounts.queryOptions({ flow_id: flow.id }),
    refetchInterval: (query) => (query.state.data?.steps.some((s) => s.waiting > 0) ? REFRESH_MS : false),
  });
  const steps = allSteps(flow.definition.steps);
  const byPosition = new Map((counts.data?.steps ?? []).map((c) => [JSON.stringify(c.position), c]));
  return (
    <section className="section" aria-labelledby="step-counts-heading">
      <h2 id="step-counts-heading">Runs by step</h2>
      <p className="muted">
        Runs of version {flow.version}: how many passed each step, wait in it, or left the flow there (unenrolled or failed).
      </p>
      {counts.isPending && <p role="status">Counting runs…</p>}
      {counts.isError && (
        <p role="alert" className="error">
          Could not count the runs: {apiFault(counts.error).message}
        </p>
      )}
      {counts.data &&
        (steps.length === 0 ? (
          <p className="empty">This flow has no steps yet.</p>
        ) : (
          <div className="table-wrap">
            <table aria-label="Runs by step">
              <thead>
                <tr>
                  <th scope="col">Step</th>
                  <th scope="col" className="number">
                    Passed
                  </th>
                  <th scope="col" className="number">
                    Waiting
                  </th>
                  <th scope="col" className="number">
                    Left
                  </th>
                </tr>
              </thead>
              <tbody>
                {steps.map(({ position, step }) => {
                  const c = byPosition.get(JSON.stringify(position));
                  return (
                    <tr key={JSON.stringify(position)}>
                      <th scope="row">
                        <span className="cell-stack">
                          {positionLabel(position)} <span className="muted">· {stepWords(step)}</span>
                        </span>
                      </th>
                      <td className="number">{c?.passed ?? 0}</td>
                      <td className="number">{c?.waiting ?? 0}</td>
                      <td className="number">{c?.left ?? 0}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        ))}
    </section>
  );
}
