import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase } from "../../e2e/support/database.ts";
import { pgDatabase, type Database } from "../db/client.ts";
import { DEMO_ADMIN_EMAIL, ensureDemo } from "./ensure-demo.ts";

// Several servers started at once on one PostgreSQL database (docs/deploy.md "One process or many") each create the demo on
// first start. Each process has its own pool: here, three handles on one fresh database.
let fresh: Awaited<ReturnType<typeof freshDatabase>>;
let handles: Database[] = [];

beforeAll(async () => {
  fresh = await freshDatabase("postgres", "ensure_demo", { migrated: true });
  handles = await Promise.all([1, 2, 3].map(() => pgDatabase({ connectionString: fresh.env.DATABASE_URL }, 3, true)));
}, 120_000);

afterAll(async () => {
  await Promise.all(handles.map((h) => h.close()));
  await fresh?.drop();
});

it("creates one demo when three processes start at once; the others find it", async () => {
  const results = await Promise.all(handles.map((h) => ensureDemo(h)));
  expect(results.filter((r) => r.created)).toHaveLength(1);
  expect(new Set(results.map((r) => r.workspace)).size).toBe(1);
  const [row] = await handles[0]!.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1`,
    [DEMO_ADMIN_EMAIL],
  );
  expect(row?.count).toBe(1);
  expect(await handles[0]!.query(`SELECT id FROM workspaces WHERE name = 'Demo'`)).toHaveLength(1);
});
