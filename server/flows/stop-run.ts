import type { Database } from "../db/client.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { stopRuns } from "./stop-runs.ts";

/** The dashboard's "unenroll" on one run: like the API's, with the admin's reason. */
export async function stopRun(database: Database, workspaceId: string, runId: string, reason?: string) {
  const stopped = await database.transaction((sql) => stopRuns(sql, { runId, workspaceId }, reason || "unenrolled from the dashboard"));
  if (stopped.length === 0) {
    const run = await database.prisma.flowRun.findFirst({ where: { id: runId, workspaceId }, select: { status: true } });
    if (!run) throw notFound("run", "run_id");
    throw conflict("run_not_active", `The run is already ${run.status}.`, "run_id");
  }
  return stopped[0]!;
}
