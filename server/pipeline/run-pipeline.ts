import { hostname } from "node:os";
import type { Database } from "../db/client.ts";
import { env } from "../lib/env.ts";
import { randomBase62 } from "../lib/ids.ts";
import { log } from "../lib/log.ts";
import { dispatchMessage } from "../messaging/dispatch-message.ts";
import { simulateStep } from "../messaging/simulate-step.ts";
import { backoffMs } from "./backoff.ts";
import { claimJobs, rescheduleJob, type Job } from "./jobs.ts";
import { channelRates, reserveSlots } from "./pacing.ts";

// One pass of the delivery pipeline (ARCHITECTURE "Shape"): claim due jobs in bounded
// batches, pace the ones that call a provider, run each with bounded concurrency, until no
// job is due or the time budget is spent. Run by the inline loop, the cron route and
// `svc tick`.

type Handler = (database: Database, job: Job, owner: string) => Promise<string>;

const HANDLERS: Record<string, Handler> = {
  "message.dispatch": (database, job, owner) => dispatchMessage(database, job, owner),
  "message.simulate": simulateStep,
};

export type PipelineCounts = { claimed: number; completed: number; paced: number; errors: number; [outcome: string]: number };

export type PipelineOptions = { budgetMs?: number; batchSize?: number; concurrency?: number; leaseMs?: number; owner?: string };

export function workerId(): string {
  return `${hostname()}:${process.pid}:${randomBase62(6)}`;
}

export async function runPipeline(database: Database, opts: PipelineOptions = {}): Promise<PipelineCounts> {
  const owner = opts.owner ?? workerId();
  const deadline = Date.now() + (opts.budgetMs ?? 5_000);
  const counts: PipelineCounts = { claimed: 0, completed: 0, paced: 0, errors: 0 };
  while (Date.now() < deadline) {
    const jobs = await claimJobs(database, owner, opts.batchSize ?? 200, opts.leaseMs ?? env().pipelineLeaseMs);
    if (jobs.length === 0) break;
    counts.claimed += jobs.length;
    const runnable = await pace(database, jobs, owner, counts);
    await eachLimit(runnable, opts.concurrency ?? 100, async (job) => {
      try {
        const outcome = await HANDLERS[job.kind]!(database, job, owner);
        counts[outcome] = (counts[outcome] ?? 0) + 1;
        counts.completed++;
      } catch (err) {
        counts.errors++;
        log().error({ err, job: job.id, kind: job.kind }, "pipeline job failed; retrying later");
        await rescheduleJob(database, job, owner, new Date(Date.now() + backoffMs(job.attempts)), { error: String(err) }).catch(() => {});
      }
    });
  }
  return counts;
}

/** Jobs over their channel's cap in this second go back to the start of the next one. */
async function pace(database: Database, jobs: Job[], owner: string, counts: PipelineCounts): Promise<Job[]> {
  const byChannel = new Map<string, Job[]>();
  const free: Job[] = [];
  for (const job of jobs) {
    if (job.channel_id && HANDLERS[job.kind] && job.kind === "message.dispatch") {
      const list = byChannel.get(job.channel_id) ?? [];
      list.push(job);
      byChannel.set(job.channel_id, list);
    } else free.push(job);
  }
  if (byChannel.size === 0) return free;
  const rates = await channelRates(database, [...byChannel.keys()]);
  for (const [channelId, list] of byChannel) {
    const { granted, nextSecondAt } = await reserveSlots(database, channelId, list.length, rates.get(channelId) ?? 80);
    free.push(...list.slice(0, granted));
    const later = list.slice(granted);
    counts.paced += later.length;
    await Promise.all(later.map((job) => rescheduleJob(database, job, owner, nextSecondAt, { countAttempt: false })));
  }
  return free;
}

async function eachLimit<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await run(items[next++]!);
  });
  await Promise.all(workers);
}
