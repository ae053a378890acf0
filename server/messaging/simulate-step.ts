import type { Database } from "../db/client.ts";
import { completeJob, rescheduleJob, type Job } from "../outbox/jobs.ts";
import { applyReport } from "./apply-report.ts";
import { SIMULATED_FAILURE, simulatedSteps } from "./test-mode.ts";

/**
 * One step of a test message's simulated life (D35): applies the step's status, then either
 * schedules the next step on the simulated clock (relative to acceptance) or finishes.
 */
export async function simulateStep(database: Database, job: Job<"message.simulate">, owner: string): Promise<"done"> {
  const { outcome, step: index } = job.payload;
  const steps = simulatedSteps(outcome);
  const step = steps[index];
  const next = steps[index + 1];
  await database.transaction(async (sql) => {
    if (step) {
      await applyReport(sql, job.subject_id, {
        status: step.status,
        kind: "status",
        error: step.status === "failed" ? SIMULATED_FAILURE : undefined,
        errorCode: step.status === "failed" ? "simulated_failure" : undefined,
        detail: { simulated: true },
      });
    }
    if (next) {
      await rescheduleJob(sql, job, owner, new Date(job.created_at.getTime() + next.afterMs), {
        countAttempt: false,
        payload: { outcome, step: index + 1 },
      });
    } else {
      await completeJob(sql, job, owner);
    }
  });
  return "done";
}
