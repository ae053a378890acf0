import { z } from "zod";
import type { Database } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import type { KeyMode } from "../generated/prisma/enums.ts";
import { notFound } from "../lib/errors.ts";
import type { Step } from "./flow-schemas.ts";
import { eachStep, stepId, stepParam } from "./step-path.ts";
import { estimateCost, ZCost, type WhatsAppPrices } from "../usage/whatsapp-cost.ts";

// D69, D83: a flow's statistics in the caller's mode. They are counters written by the
// transactions that write runs, their history and their messages' statuses (stat-counters.ts),
// read by the counters' primary key: a few rows per step and version,
// whatever the number of runs. Each version the runs used is listed, newest first, with every
// step of its document in document order (zero where nothing happened).

const ZCount = z.number().int();
export const ZFlowStats = z
  .object({
    flow_id: z.string(),
    runs: z.object({ active: ZCount, completed: ZCount, stopped: ZCount, failed: ZCount }),
    conversions: ZCount.describe("Runs that reached the flow's goal."),
    versions: z.array(
      z.object({
        version: ZCount,
        cost: ZCost.optional().describe(
          "The estimated WhatsApp cost of the messages this version's steps sent, at the workspace's prices: charged messages by Meta's pricing category times their price. Absent while no prices are set.",
        ),
        steps: z.array(
          z.object({
            id: z.string(),
            path: z.string().describe("The step's position in the document, such as `steps.2.then.0`."),
            type: z.string(),
            reached: ZCount.describe("Runs that ran the step, skipped it, or began waiting in it."),
            waiting: ZCount.describe("Active runs that are in the step now."),
            stopped: ZCount.describe("Runs stopped while in the step."),
            failed: ZCount.describe("Runs that failed at the step."),
            skipped: z.record(z.string(), ZCount).describe("Sends that sent nothing, by reason."),
            messages: z.record(z.string(), ZCount).describe("Messages the step sent, by their status now."),
            paths: z
              .array(z.object({ index: ZCount, taken: ZCount }))
              .optional()
              .describe("Branch (0 then, 1 else), split and wait_for (0 event, 1 timeout) steps only: runs per path."),
          }),
        ),
      }),
    ),
  })
  .meta({ id: "FlowStats" });
export type FlowStats = z.infer<typeof ZFlowStats>;

type Counter = { version: number; path: string; metric: string; n: number };

export async function flowStats(database: Database, caller: { workspaceId: string; mode: KeyMode }, flowId: string): Promise<FlowStats> {
  const [flow] = await database.query<Columns<"flows", "version"> & { whatsapp_prices: WhatsAppPrices; currency: string | null }>(
    `SELECT f.version, w.whatsapp_prices, w.currency FROM flows f JOIN workspaces w ON w.id = f.workspace_id
     WHERE f.id = $1 AND f.workspace_id = $2 AND w.id = $2`,
    [flowId, caller.workspaceId],
  );
  if (!flow) throw notFound("flow", "flow_id");
  const counters = await database.query<Counter>(
    `SELECT version, path, metric, sum(n)::int AS n FROM flow_step_stats WHERE workspace_id = $3 AND flow_id = $1 AND mode = $2::"KeyMode"
     GROUP BY 1, 2, 3 HAVING sum(n) <> 0`,
    [flowId, caller.mode, caller.workspaceId],
  );
  const used = [...new Set([flow.version, ...counters.filter((c) => c.version > 0).map((c) => c.version)])].sort((a, b) => b - a);
  const versions = await database.query<{ version: number; steps: Step[] }>(
    `SELECT version, steps FROM flow_versions WHERE workspace_id = $3 AND flow_id = $1 AND version = ANY($2::int[]) ORDER BY version DESC`,
    [flowId, used, caller.workspaceId],
  );
  const byStep = new Map<string, Map<string, number>>();
  for (const c of counters) {
    const key = `${c.version} ${c.path}`;
    if (!byStep.has(key)) byStep.set(key, new Map());
    byStep.get(key)!.set(c.metric, c.n);
  }
  const flowWide = byStep.get("0 ") ?? new Map<string, number>();
  return {
    flow_id: flowId,
    runs: {
      active: flowWide.get("runs:active") ?? 0,
      completed: flowWide.get("runs:completed") ?? 0,
      stopped: flowWide.get("runs:stopped") ?? 0,
      failed: flowWide.get("runs:failed") ?? 0,
    },
    conversions: flowWide.get("conversions") ?? 0,
    versions: versions.map(({ version, steps }) => {
      // D89: the version's sends by pricing, counted at their steps as `pricing:<category>:charged`.
      const charged: Record<string, number> = {};
      for (const c of counters) {
        const m = c.version === version ? /^pricing:(.+):charged$/.exec(c.metric) : null;
        if (m) charged[m[1]!] = (charged[m[1]!] ?? 0) + c.n;
      }
      const cost = estimateCost(charged, flow.whatsapp_prices ?? {}, flow.currency);
      const list: FlowStats["versions"][number]["steps"] = [];
      eachStep(steps, (step, at) => {
        const path = stepParam(at);
        const metrics = byStep.get(`${version} ${path}`) ?? new Map<string, number>();
        const prefixed = (prefix: string) =>
          Object.fromEntries([...metrics].filter(([m]) => m.startsWith(prefix)).map(([m, n]) => [m.slice(prefix.length), n]));
        const taken = new Map(Object.entries(prefixed("path:")).map(([i, n]) => [Number(i), n]));
        // A split's paths are its `paths` (D68); an index counted beyond them is listed too.
        const declared: unknown = (step as unknown as { paths?: unknown }).paths;
        const count = step.type === "branch" || step.type === "wait_for" ? 2 : Array.isArray(declared) ? declared.length : 0;
        list.push({
          id: stepId(step, at),
          path,
          type: step.type,
          reached: metrics.get("reached") ?? 0,
          waiting: metrics.get("waiting") ?? 0,
          stopped: metrics.get("stopped") ?? 0,
          failed: metrics.get("failed") ?? 0,
          skipped: prefixed("skipped:"),
          messages: step.type === "send" ? prefixed("message:") : {},
          ...(count > 0
            ? {
                paths: Array.from({ length: Math.max(count, ...[...taken.keys()].map((i) => i + 1)) }, (_, index) => ({
                  index,
                  taken: taken.get(index) ?? 0,
                })),
              }
            : {}),
        });
      });
      return { version, ...(cost ? { cost } : {}), steps: list };
    }),
  };
}
