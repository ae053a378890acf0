import DataLoader from "dataloader";
import type { Database } from "../db/client.ts";
import { causeParams } from "../observability/request-context.ts";
import { settleJobs, type Job } from "../outbox/jobs.ts";
import { Handoff } from "../outbox/handoff.ts";
import { applyReports, type ReportFor } from "./apply-report.ts";
import { SIMULATED_BOUNCE, SIMULATED_FAILURE, simulatedSteps } from "./test-mode.ts";

type Step = { job: Job<"message.simulate">; owner: string; cause: [string | null, string | null] };

const batches = new WeakMap<Database, DataLoader<Step, void>>();

/**
 * One step of a test message's simulated life (D35): applies the step's status, then either
 * schedules the next step on the simulated clock (relative to acceptance) or finishes. The
 * steps of one claim start together and run as one transaction of three statements, however
 * many: their jobs settle (only those the claim still holds go on), then their messages'
 * status changes and events are written at once.
 */
export async function simulateStep(database: Database, job: Job<"message.simulate">, owner: string): Promise<"done"> {
  let loader = batches.get(database);
  if (!loader) {
    loader = new DataLoader((steps: readonly Step[]) => runSteps(database, steps), { cache: false, maxBatchSize: 200 });
    batches.set(database, loader);
  }
  await loader.load({ job, owner, cause: causeParams() });
  return "done";
}

async function runSteps(database: Database, steps: readonly Step[]): Promise<void[]> {
  const planned = steps.map(({ job, owner, cause }) => {
    const { outcome, step: index } = job.payload;
    const all = simulatedSteps(outcome);
    const next = all[index + 1];
    const settlement = next
      ? {
          id: job.id,
          workspace_id: job.workspace_id,
          owner,
          runAt: new Date(job.created_at.getTime() + next.afterMs),
          countAttempt: false,
          payload: { kind: job.kind, value: { outcome, step: index + 1 } },
        }
      : { id: job.id, workspace_id: job.workspace_id, owner };
    const step = all[index];
    const report: ReportFor | null = step
      ? {
          messageId: job.subject_id,
          workspaceId: job.workspace_id,
          cause,
          report: {
            status: step.status,
            kind: "status",
            ...(step.status === "failed" && outcome === "bounced"
              ? {
                  error: SIMULATED_BOUNCE,
                  errorCode: "bounce_hard",
                  suppress: { reason: "hard_bounce" as const, detail: SIMULATED_BOUNCE },
                }
              : step.status === "failed"
                ? { error: SIMULATED_FAILURE, errorCode: "simulated_failure" }
                : {}),
            detail: { simulated: true },
          },
        }
      : null;
    return { settlement, report };
  });
  // The events' webhook deliveries start in this worker once committed, with no claim of theirs.
  const handoff = Handoff.take();
  await database.transaction(async (sql) => {
    const held = await settleJobs(
      sql,
      planned.map((p) => p.settlement),
    );
    await applyReports(
      sql,
      planned.flatMap((p) => (p.report && held.has(p.settlement.id) ? [p.report] : [])),
      handoff,
    );
  });
  handoff?.commit(() => true);
  return steps.map(() => undefined);
}
