import { bumpTemplatesVersion } from "../whatsapp/templates-version.ts";
import { describe, expect, it } from "vitest";
import { openFreshDatabase } from "../../e2e/support/open-database.ts";
import type { Database } from "../db/client.ts";
import { connectedChannel } from "./connected-channel.ts";

// D16: a live send without `channel_id` goes through the oldest connected channel of its type,
// and is a 409 when there is none. The live sends of one tick ask in one statement, each
// answered for its own workspace and type; a flow run asks through its transaction.

describe.each(["pglite", "postgres"] as const)("the connected channel of a live send on %s", (engine) => {
  it("answers each workspace and type from one statement, the oldest connected channel first", async () => {
    const { database, drop } = await openFreshDatabase(engine, "connected");
    try {
      await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws_a', 'A'), ('ws_b', 'B'), ('ws_c', 'C')`);
      await database.query(`
        INSERT INTO channels (id, workspace_id, type, name, external_id, secrets, created_at, disconnected_at) VALUES
          ('ch_a_gone', 'ws_a', 'whatsapp', 'Gone', '1', '', now() - interval '3 days', now()),
          ('ch_a_old', 'ws_a', 'whatsapp', 'Old', '2', '', now() - interval '2 days', NULL),
          ('ch_a_new', 'ws_a', 'whatsapp', 'New', '3', '', now() - interval '1 day', NULL),
          ('ch_a_mail', 'ws_a', 'email', 'Mail', 'a@example.com', '', now(), NULL),
          ('ch_b_wa', 'ws_b', 'whatsapp', 'B', '4', '', now(), NULL)`);
      const statements: unknown[] = [];
      const counted: Database = {
        ...database,
        query: ((text: string, values?: unknown[]) => {
          statements.push(values);
          return database.query(text, values);
        }) as Database["query"],
      };

      const asked = [
        ["ws_a", "whatsapp"],
        ["ws_b", "whatsapp"],
        ["ws_a", "email"],
        ["ws_a", "whatsapp"],
        ["ws_b", "email"],
        ["ws_c", "whatsapp"],
      ] as const;
      const answers = await Promise.allSettled(asked.map(([ws, type]) => connectedChannel({ database: counted }, ws, type)));
      expect(statements).toHaveLength(1);
      expect(answers.map((a) => (a.status === "fulfilled" ? a.value : (a.reason as { code: string }).code))).toEqual([
        "ch_a_old",
        "ch_b_wa",
        "ch_a_mail",
        "ch_a_old",
        "channel_not_connected",
        "channel_not_connected",
      ]);

      // Inside a transaction (a flow run's send step), the same answers; a disconnect is seen at once.
      await database.transaction(async (tx) => {
        expect(await connectedChannel({ sql: tx }, "ws_a", "whatsapp")).toBe("ch_a_old");
        await tx(`UPDATE channels SET disconnected_at = now() WHERE id = 'ch_a_old'`);
        expect(await connectedChannel({ sql: tx }, "ws_a", "whatsapp")).toBe("ch_a_new");
      });
      expect(await connectedChannel({ database }, "ws_a", "whatsapp")).toBe("ch_a_new");
      await expect(connectedChannel({ sql: database.query }, "ws_c", "email")).rejects.toMatchObject({
        status: 409,
        code: "channel_not_connected",
        param: "channel",
      });
    } finally {
      await drop();
    }
  });

  it("answers again from memory while the workspace's templates_version is the one read, and reads again once it changes", async () => {
    const { database, drop } = await openFreshDatabase(engine, "connected_cache");
    try {
      await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws_a', 'A'), ('ws_c', 'C')`);
      await database.query(`
        INSERT INTO channels (id, workspace_id, type, name, external_id, secrets, created_at) VALUES
          ('ch_a_old', 'ws_a', 'whatsapp', 'Old', '2', '', now() - interval '2 days'),
          ('ch_a_new', 'ws_a', 'whatsapp', 'New', '3', '', now() - interval '1 day')`);
      let statements = 0;
      const counted: Database = {
        ...database,
        query: ((text: string, values?: unknown[]) => {
          statements++;
          return database.query(text, values);
        }) as Database["query"],
      };
      // What an API request's key check reads, in the same statement as the key.
      const version = async (ws: string) =>
        (await database.query<{ v: string }>(`SELECT templates_version::text AS v FROM workspaces WHERE id = $1`, [ws]))[0]!.v;
      const ask = async (ws: string) => connectedChannel({ database: counted, version: await version(ws) }, ws, "whatsapp");

      expect(await ask("ws_a")).toBe("ch_a_old");
      expect(await ask("ws_a")).toBe("ch_a_old");
      await expect(ask("ws_c")).rejects.toMatchObject({ code: "channel_not_connected" });
      await expect(ask("ws_c")).rejects.toMatchObject({ code: "channel_not_connected" });
      expect(statements).toBe(2);

      // A disconnect or a connect, from any instance, changes the version: the next ask reads.
      await database.query(`UPDATE channels SET disconnected_at = now() WHERE id = 'ch_a_old'`);
      await database.query(
        `INSERT INTO channels (id, workspace_id, type, name, external_id, secrets) VALUES ('ch_c', 'ws_c', 'whatsapp', 'C', '5', '')`,
      );
      // As the writers of channels do in their transaction (D87: no trigger).
      await bumpTemplatesVersion(database.query, ["ws_a", "ws_c"]);
      expect(await ask("ws_a")).toBe("ch_a_new");
      expect(await ask("ws_c")).toBe("ch_c");
      expect(statements).toBe(4);
      // Without a version (a caller that read none), every ask reads.
      expect(await connectedChannel({ database: counted }, "ws_a", "whatsapp")).toBe("ch_a_new");
      expect(statements).toBe(5);
    } finally {
      await drop();
    }
  });
});
