"use client";

import { useQuery } from "@tanstack/react-query";
import { QueryState } from "@/app/_components/query-state.tsx";
import { useMode } from "@/app/_components/mode-switch.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { Step } from "@/server/flows/flow-schemas.ts";
import { stepAt, type Path } from "@/server/flows/step-path.ts";
import { faultPlace } from "./fault-words.ts";
import { formatCost } from "@/app/_components/money.ts";
import { pathWords, positionLabel, STEP_TYPE_LABEL, type StepType } from "./flow-labels.tsx";

const REFRESH_MS = 5_000;

const entries = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, n]) => `${k.replace(/_/g, " ")} ${n}`)
    .join(", ");

/** The list of a step's path `index` as the document names it: a branch's then/else, a wait_for's on_event/on_timeout, a split's paths. */
const pathList = (type: string, index: number) =>
  type === "branch"
    ? (["then", "else"][index] ?? String(index))
    : type === "wait_for"
      ? (["on_event", "on_timeout"][index] ?? String(index))
      : `paths.${index}.steps`;

/** Runs per path in the canvas's words: "then 3, else 1", "event arrived 2, timed out 1", "path 1 4, path 2 5". */
const pathsTaken = (type: string, paths: { index: number; taken: number }[], step: Step | undefined) =>
  paths.map((p) => `${pathWords(pathList(type, p.index), step)} ${p.taken}`).join(", ");

/**
 * The flow's statistics in the mode of the top bar's switch: its runs by status and conversions,
 * and each step of each version with its numbers. The canvas's nodes show the current version's
 * runs reached, waiting and skipped; this is their text alternative and holds what a node does
 * not (runs stopped or failed at a step, skip reasons, message statuses, paths taken, earlier
 * versions). It replaced the "Runs by step" table, whose numbers the nodes now show.
 */
export function FlowStatsView({ flowId, current }: { flowId: string; current: { version: number; steps: Step[] } }) {
  const trpc = useTRPC();
  const mode = useMode();
  const stats = useQuery({ ...trpc.flows.modeStats.queryOptions({ flow_id: flowId, mode }), refetchInterval: REFRESH_MS });
  const data = stats.data;
  return (
    <section className="section" aria-labelledby="flow-stats-heading">
      <h2 id="flow-stats-heading">Statistics</h2>
      <p className="muted">Runs in {mode} mode, as the top bar&apos;s switch shows, step by step for each version they used.</p>
      <QueryState query={stats} what="the statistics" />
      {data && (
        <>
          <p aria-label="Runs by status">
            Active {data.runs.active} · completed {data.runs.completed} · stopped {data.runs.stopped} · failed {data.runs.failed} ·
            conversions {data.conversions}
          </p>
          {data.versions.map((v) => (
            <div className="table-wrap" key={v.version}>
              <table aria-label={`Version ${v.version} by step`}>
                <caption>
                  Version {v.version}
                  {v.cost && <span className="muted"> · estimated WhatsApp cost {formatCost(v.cost)}</span>}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Step</th>
                    <th scope="col" className="number">
                      Reached
                    </th>
                    <th scope="col" className="number">
                      Waiting
                    </th>
                    <th scope="col" className="number">
                      Stopped
                    </th>
                    <th scope="col" className="number">
                      Failed
                    </th>
                    <th scope="col">Skipped, messages, paths</th>
                  </tr>
                </thead>
                <tbody>
                  {v.steps.map((s) => {
                    // The current version's document names a wait on a message's path as the canvas does.
                    const steps = v.version === current.version ? current.steps : undefined;
                    const position = faultPlace(s.path)?.position;
                    const step = steps && position ? stepAt(steps, position as Path) : undefined;
                    return (
                      <tr key={s.path} data-step={s.id}>
                        <th scope="row">
                          <span className="cell-stack">
                            {positionLabel(position, steps)}{" "}
                            <span className="muted">· {STEP_TYPE_LABEL[s.type as StepType] ?? s.type}</span>
                          </span>
                        </th>
                        <td className="number">{s.reached}</td>
                        <td className="number">{s.waiting}</td>
                        <td className="number">{s.stopped}</td>
                        <td className="number">{s.failed}</td>
                        <td>
                          {[
                            Object.keys(s.skipped).length ? `skipped: ${entries(s.skipped)}` : "",
                            Object.keys(s.messages).length ? `messages: ${entries(s.messages)}` : "",
                            s.paths ? `paths taken: ${pathsTaken(s.type, s.paths, step)}` : "",
                          ]
                            .filter(Boolean)
                            .join(" · ")}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          ))}
        </>
      )}
    </section>
  );
}
