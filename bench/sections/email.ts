import { randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../../e2e/support/server.ts";
import { load } from "../load.ts";
import { record, SECONDS, WARMUP, withServer } from "../support.ts";

// POST /messages for a live e-mail, the send that checks the recipient's address against the
// workspace's suppression list (D72) in the same statement as its contact read. Measured with
// the pipeline off, so only the API's accept path counts, against a list of
// BENCH_SUPPRESSIONS addresses (default 100,000) that does not hold the recipient. This file
// has no other dependency than the benchmark's own support, so the same section can run in a
// checkout of an earlier version (one without a suppression list) to compare, back to back.

const SUPPRESSIONS = Number(process.env.BENCH_SUPPRESSIONS ?? 100_000);

const EMAIL = JSON.stringify({
  channel: "email",
  to: { email: "reader@example.com" },
  email: { subject: "Your code", html: "<p>Your code is {{code}}</p>" },
  variables: { code: 1234 },
});

export async function liveEmailAcceptance(label = process.env.BENCH_LABEL ?? "this version"): Promise<void> {
  await withServer("postgres", { PIPELINE: "off", ALLOW_PRIVATE_WEBHOOKS: "1" }, async ({ url, keys, env, sql }) => {
    execFileSync(
      process.execPath,
      [join(ROOT, "bin", "svc.mjs"), "channel", "connect", "--workspace", keys.workspace, "--type", "email"].concat([
        "--smtp-url",
        "smtp://127.0.0.1:9",
        "--from",
        "news@acme.test",
        "--json",
      ]),
      { cwd: ROOT, env: { ...process.env, ...env } as NodeJS.ProcessEnv, encoding: "utf8" },
    );
    const [{ list }] = await sql("SELECT to_regclass('suppressions') IS NOT NULL AS list");
    if (list) {
      await sql(
        `INSERT INTO suppressions (id, workspace_id, mode, email, email_key, reason, created_at)
         SELECT 'sup_bench' || i, $1, 'live', 'gone' || i || '@example.com', 'gone' || i || '@example.com', 'hard_bounce', now()
         FROM generate_series(1, $2::int) AS i`,
        [keys.workspace, SUPPRESSIONS],
      );
      // The statistics autovacuum gathers within a minute of such a change. Without them the
      // planner, which last saw the table empty, may read the list by its created_at index and
      // filter every address of the workspace: 5 s a send in a first try of this section.
      await sql("ANALYZE suppressions");
    }
    const headers = { Authorization: `Bearer ${keys.liveKey}`, "Content-Type": "application/json" };
    const result = await load({
      url: `${url}/api/v1/messages`,
      method: "POST",
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      headers,
      body: EMAIL,
      setupRequest: (req) => ({ ...req, headers: { ...headers, "Idempotency-Key": randomUUID() }, body: EMAIL }),
    });
    record(`POST /api/v1/messages live e-mail accepted (${label})`, {
      ...result,
      note: list ? `${SUPPRESSIONS.toLocaleString("en")} addresses suppressed` : "no suppression list",
    });
  });
}
