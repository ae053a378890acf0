import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Handle } from "../../server/db/client.ts";
import { deleteOlderThan } from "../../server/pipeline/sweep.ts";
import { freshDatabase, queryDatabase, type Engine } from "../support/database.ts";
import { ROOT } from "../support/server.ts";

// Retention of message history and events (docs/messages.md "How long messages are kept"):
// the hourly maintenance sweep, run by the real pipeline pass (`svc tick`), deletes rows
// older than RETENTION_DAYS in statements of RETENTION_BATCH_ROWS rows, on both engines.

const DAY = 24 * 60 * 60_000;

for (const engine of ["pglite", "postgres"] as Engine[]) {
  describe(`retention sweep (${engine})`, () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    const query: Handle = async <T>(text: string, values: unknown[] = []) => (await queryDatabase(database.env, text, values)) as T[];
    const svc = (args: string[], env: Record<string, string> = {}) =>
      JSON.parse(
        execFileSync(process.execPath, ["bin/svc.mjs", ...args, "--json"], {
          cwd: ROOT,
          env: { ...process.env, ...database.env, ...env },
          encoding: "utf8",
        }),
      ) as Record<string, unknown>;
    let workspace: string;

    /** A message with `n` history rows and `n` events, each `ageDays` old. */
    async function seed(id: string, n: number, ageDays: number) {
      const at = new Date(Date.now() - ageDays * DAY);
      await query(
        `INSERT INTO messages (id, workspace_id, mode, channel, contact_id, "to", status, content, created_at)
         VALUES ($1, $2, 'test', 'whatsapp', 'ct_retention', '+15550100009', 'read', '{}', $3)`,
        [id, workspace, at],
      );
      await query(
        `INSERT INTO message_history (workspace_id, message_id, at, kind, status)
         SELECT $4, $1, $2::timestamptz + g * interval '1 ms', 'status', 'sent' FROM generate_series(1, $3::int) g`,
        [id, at, n, workspace],
      );
      await query(
        `INSERT INTO events (id, workspace_id, name, mode, data, contact_id, created_at)
         SELECT $1 || '_evt_' || g, $2, 'mensagem.enviada', 'test', '{}', 'ct_retention', $3::timestamptz + g * interval '1 ms' FROM generate_series(1, $4::int) g`,
        [id, workspace, at, n],
      );
    }

    const counts = async (id: string) => {
      const [row] = await query<{ history: number; events: number; messages: number }>(
        `SELECT (SELECT count(*)::int FROM message_history WHERE message_id = $1) AS history,
                (SELECT count(*)::int FROM events WHERE id LIKE $1 || '_evt_%') AS events,
                (SELECT count(*)::int FROM messages WHERE id = $1) AS messages`,
        [id],
      );
      return row;
    };

    beforeAll(async () => {
      database = await freshDatabase(engine, "retention", { migrated: true });
      workspace = String(svc(["workspace", "create", "--name", "Retention"]).workspace);
    });
    afterAll(async () => {
      await database?.drop();
    });

    it("deletes history and events older than RETENTION_DAYS, keeps newer ones and the messages, and comes back in an hour", async () => {
      await seed("msg_old", 25, 31);
      await seed("msg_recent", 5, 29);
      await query(`UPDATE jobs SET run_at = now() WHERE id = 'job_sweep'`);

      const tick = svc(["tick"], { RETENTION_DAYS: "30", RETENTION_BATCH_ROWS: "10" });
      expect(tick.swept).toBe(1);

      expect(await counts("msg_old")).toEqual({ history: 0, events: 0, messages: 1 });
      expect(await counts("msg_recent")).toEqual({ history: 5, events: 5, messages: 1 });
      const [job] = await query<{ in_minutes: number }>(
        `SELECT extract(epoch FROM run_at - now()) / 60 AS in_minutes FROM jobs WHERE id = 'job_sweep'`,
      );
      expect(Number(job!.in_minutes)).toBeGreaterThan(55);
    });

    it("deletes at most one batch a statement and stops at its deadline, leaving the rest for the next sweep", async () => {
      await seed("msg_backlog", 25, 100);
      const cutoff = new Date(Date.now() - 90 * DAY);
      // The deadline has passed: one statement, one batch, not done.
      expect(await deleteOlderThan(query, "message_history", "at", cutoff, 10, 0)).toEqual({ deleted: 10, statements: 1, done: false });
      expect((await counts("msg_backlog"))!.history).toBe(15);
      // Time enough: batches of 10 until a short one says nothing is left.
      expect(await deleteOlderThan(query, "message_history", "at", cutoff, 10, Date.now() + 60_000)).toEqual({
        deleted: 15,
        statements: 2,
        done: true,
      });
      expect(await deleteOlderThan(query, "events", "created_at", cutoff, 10, Date.now() + 60_000)).toEqual({
        deleted: 25,
        statements: 3,
        done: true,
      });
      expect(await counts("msg_backlog")).toEqual({ history: 0, events: 0, messages: 1 });
      expect((await counts("msg_recent"))!.history).toBe(5);
    });
  });
}
