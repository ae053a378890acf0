import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../../e2e/support/database.ts";
import { ZFlowDefinition } from "../flows/flow-schemas.ts";
import { readMigrations } from "./migrate.ts";

// Issue 46: versions stored by earlier releases carry "paths.<i>.steps" members beside a split's
// `paths`, the only place where the steps of its paths had ids. The migration leaves each
// version in the canonical D37 form, each of those steps with the id it had there. On both engines.
const migrations = readMigrations().migrationDirectories;
const index = migrations.findIndex((m) => m.path.endsWith("_flow_documents_canonical"));
const sqlOf = (m: (typeof migrations)[number]) => (m.migrationFile.content as { value: string }).value;
const before = migrations.slice(0, index).map(sqlOf);
const canonical = sqlOf(migrations[index]!);

// What the earlier `withStepIds` stored for a send, then a split whose first path holds a wait
// and a wait_for (a split in its event path, a branch in its timeout path) and whose second path
// holds a step with an id of its own.
const LEGACY = [
  { type: "send", channel: "email", email: { subject: "Hi", html: "<p>Hi</p>" }, id: "st_old000" },
  {
    type: "split",
    paths: [
      {
        weight: 70,
        steps: [
          { type: "wait", duration: "PT1H" },
          {
            type: "wait_for",
            event: "order_paid",
            timeout: "P1D",
            on_event: [
              {
                type: "split",
                paths: [
                  { weight: 1, steps: [{ type: "exit" }] },
                  { weight: 1, steps: [] },
                ],
              },
            ],
            on_timeout: [{ type: "branch", if: { opted_out: "email" }, then: [{ type: "exit" }], else: [] }],
          },
        ],
      },
      { weight: 30, steps: [{ type: "wait", id: "given", duration: "PT2H" }] },
    ],
    id: "st_old001",
    "paths.0.steps": [
      { type: "wait", duration: "PT1H", id: "st_old002" },
      {
        type: "wait_for",
        event: "order_paid",
        timeout: "P1D",
        on_event: [
          {
            type: "split",
            paths: [
              { weight: 1, steps: [{ type: "exit" }] },
              { weight: 1, steps: [] },
            ],
            id: "st_old004",
            "paths.0.steps": [{ type: "exit", id: "st_old005" }],
            "paths.1.steps": [],
          },
        ],
        on_timeout: [{ type: "branch", if: { opted_out: "email" }, then: [{ type: "exit", id: "st_old007" }], else: [], id: "st_old006" }],
        id: "st_old003",
      },
    ],
    "paths.1.steps": [{ type: "wait", id: "given", duration: "PT2H" }],
  },
];

const CANONICAL = [
  { type: "send", id: "st_old000", channel: "email", email: { subject: "Hi", html: "<p>Hi</p>" } },
  {
    type: "split",
    id: "st_old001",
    paths: [
      {
        weight: 70,
        steps: [
          { type: "wait", id: "st_old002", duration: "PT1H" },
          {
            type: "wait_for",
            id: "st_old003",
            event: "order_paid",
            timeout: "P1D",
            on_event: [
              {
                type: "split",
                id: "st_old004",
                paths: [
                  { weight: 1, steps: [{ type: "exit", id: "st_old005" }] },
                  { weight: 1, steps: [] },
                ],
              },
            ],
            on_timeout: [
              { type: "branch", id: "st_old006", if: { opted_out: "email" }, then: [{ type: "exit", id: "st_old007" }], else: [] },
            ],
          },
        ],
      },
      { weight: 30, steps: [{ type: "wait", id: "given", duration: "PT2H" }] },
    ],
  },
];

// A version that was canonical already (no split, a step without an id from before ids) stays byte for byte.
const PLAIN = [{ type: "branch", if: { has_tag: "tag_x" }, then: [{ type: "exit" }], else: [], id: "b" }, { type: "exit" }];

const DATA = `
  INSERT INTO workspaces (id, name) VALUES ('ws-a', 'A');
  INSERT INTO flows (id, workspace_id, name, status, version) VALUES ('flow_a', 'ws-a', 'Split', 'active', 2), ('flow_b', 'ws-a', 'Plain', 'draft', 1);
  INSERT INTO flow_versions (flow_id, version, steps) VALUES
    ('flow_a', 1, '${JSON.stringify(LEGACY)}'),
    ('flow_a', 2, '${JSON.stringify([LEGACY[1]])}'),
    ('flow_b', 1, '${JSON.stringify(PLAIN)}');`;

type Query = (sql: string) => Promise<{ rows: Record<string, unknown>[] }>;

async function check(query: Query) {
  const { rows } = await query("SELECT flow_id, version, steps, steps::text AS text FROM flow_versions ORDER BY flow_id, version");
  expect(rows.map((r) => r.steps)).toEqual([CANONICAL, [CANONICAL[1]], PLAIN]);
  for (const row of rows) {
    expect(row.text).not.toContain('"paths.');
    // The strict schema takes every version as it is now (it refused the extra members).
    expect(ZFlowDefinition.safeParse({ name: "x", steps: row.steps }).success).toBe(true);
  }
  expect(await query("SELECT 1 FROM pg_proc WHERE proname = 'flow_steps_canonical'")).toMatchObject({ rows: [] });
}

describe("the migration to canonical flow documents (issue 46)", () => {
  // Replaying the whole history into PGlite takes half a minute on a busy machine.
  it("drops the paths.<i>.steps members and keeps their ids, on PGlite", { timeout: 180_000 }, async () => {
    const client = await PGlite.create();
    try {
      for (const sql of before) await client.exec(sql);
      await client.exec(DATA);
      const plain = await client.query<{ text: string }>("SELECT steps::text AS text FROM flow_versions WHERE flow_id = 'flow_b'");
      await client.exec(canonical);
      await check((sql) => client.query(sql));
      expect((await client.query<{ text: string }>("SELECT steps::text AS text FROM flow_versions WHERE flow_id = 'flow_b'")).rows).toEqual(
        plain.rows,
      );
    } finally {
      await client.close();
    }
  });

  it("drops the paths.<i>.steps members and keeps their ids, on PostgreSQL", { timeout: 120_000 }, async () => {
    const database = await freshDatabase("postgres", "flow-docs");
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
    try {
      await client.connect();
      for (const sql of before) await client.query(sql);
      await client.query(DATA);
      await client.query(canonical);
      await check((sql) => client.query(sql));
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
