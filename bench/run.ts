// npm run bench: the project's benchmark command. Each section starts real server processes
// on fresh databases, warms up, then measures (autocannon, 50 connections, unless said). The
// report is printed as a table and written to bench/results/latest.json.
// `npm run bench -- <section> …` runs only those sections. `growth` fills PostgreSQL with
// BENCH_GROWTH_MESSAGES messages (default 2,000,000; fewer for a quick run) and one flow with
// BENCH_GROWTH_RUNS runs (default 1,000,000) for its statistics and an edit's preview; `event-wake` enrolls
// BENCH_WAITING_RUNS waiting runs (default 10,000). `cost` measures what one message and one
// journey run write to PostgreSQL (BENCH_COST_MESSAGES, default 300; BENCH_COST_RUNS, 200).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../e2e/support/server.ts";
import { prepare } from "../scripts/lib/prepare.mjs";
import { baseline, contactUpserts, keyCheck, messageAcceptance } from "./sections/api.ts";
import { batchSends } from "./sections/batch.ts";
import { liveEmailAcceptance } from "./sections/email.ts";
import { cliCommands } from "./sections/cli.ts";
import { writeCosts } from "./sections/cost.ts";
import { dispatchCapacity, dispatchRate, dispatchRateWorkspaces, pacing, queuedToSent } from "./sections/pipeline.ts";
import { eventAcceptance, eventWake, triggeredEventAcceptance } from "./sections/events.ts";
import { firstStarts } from "./sections/first-start.ts";
import { enrollments, runSteps } from "./sections/flows.ts";
import { growth } from "./sections/growth.ts";
import { webhookDeliveries, webhookLatency } from "./sections/webhooks.ts";
import { templateSends } from "./sections/whatsapp.ts";
import { results, SECONDS } from "./support.ts";

prepare(ROOT, { quiet: true });

const sections: Record<string, () => Promise<void>> = {
  baseline,
  "key-check-postgres": () => keyCheck("postgres"),
  "key-check-pglite": () => keyCheck("pglite"),
  contacts: contactUpserts,
  messages: messageAcceptance,
  "messages-email": () => liveEmailAcceptance(),
  batch: batchSends,
  templates: templateSends,
  dispatch: dispatchRate,
  "dispatch-50": dispatchRateWorkspaces,
  "dispatch-capacity": dispatchCapacity,
  pacing,
  latency: queuedToSent,
  "webhook-deliveries": webhookDeliveries,
  "webhook-latency": webhookLatency,
  enroll: enrollments,
  "flow-steps": () => runSteps(),
  "flow-steps-50": () => runSteps(50),
  events: eventAcceptance,
  "events-triggered": triggeredEventAcceptance,
  "event-wake": eventWake,
  growth,
  cost: writeCosts,
  cli: () => cliCommands(),
  "first-start": firstStarts,
};

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(sections)) {
  if (only.length && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}…\n`);
  await run();
}

const columns = [
  "rps",
  "p50",
  "p99",
  "non2xx",
  "per_second",
  "max_per_second",
  "min_full_second",
  "mean_full_second",
  "p50_ms",
  "p95_ms",
  "max_ms",
  "rss_mb",
  "messages",
  "events",
  "transactions",
  "rows",
  "inserted",
  "updated",
  "deleted",
  "wal_kb",
  "fpi",
];
console.log("");
for (const [name, row] of Object.entries(results)) {
  const figures = columns.filter((c) => row[c] !== undefined).map((c) => `${c}=${row[c]}`);
  console.log(`${name.padEnd(52)} ${figures.join("  ")}${row.note ? `  (${row.note})` : ""}`);
}
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(
  join(ROOT, "bench/results/latest.json"),
  JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, results }, null, 2),
);
