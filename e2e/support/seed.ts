// Seeds the fixture workspaces and keys of the API tests through the domain services, then
// prints them as JSON. Run as a child process with the test database's environment, before a
// server starts (it applies the migrations itself, as the CLI does) or while one runs (on the
// embedded store it reaches the store through the server's socket, the CLI's path, D53).
import { closeDb, db } from "../../server/db/client.ts";
import { applyMigrations } from "../../server/db/migrate.ts";
import { createKey } from "../../server/keys/create-key.ts";
import { revokeKey } from "../../server/keys/revoke-key.ts";
import type { Scope } from "../../server/keys/scopes.ts";
import { createUser } from "../../server/users/create-user.ts";
import { createWorkspace, type CreateWorkspaceRequest } from "../../server/workspaces/create-workspace.ts";
import { FIXTURE_ADMIN, FIXTURE_OUTSIDER, FIXTURE_SUPPORT, FIXTURES, type Fixtures, type WorkspaceSpec } from "./fixtures.ts";
import { OPERATOR } from "../../server/lib/caller.ts";

const database = await db();
if (!database.shared) await applyMigrations(database.migrationTarget); // a sharing server applied them (D53)
const out: Fixtures = {};
for (const [label, spec] of Object.entries(FIXTURES as Record<string, WorkspaceSpec>)) {
  const request: CreateWorkspaceRequest = {
    name: `Fixture ${label}`,
    plan: spec.plan,
    rateLimit: spec.rateLimit ?? null,
    dailyLimit: spec.dailyLimit ?? null,
    ...(spec.monthlyLimit !== undefined ? { monthlyLimit: spec.monthlyLimit } : {}),
    defaultCountry: spec.defaultCountry ?? null,
  };
  const { id } = await createWorkspace(database, request, OPERATOR);
  await createUser(database, id, { ...FIXTURE_ADMIN, role: "admin" }, OPERATOR);
  const keys: Record<string, string> = {};
  const keyIds: Record<string, string> = {};
  for (const [name, key] of Object.entries(spec.keys)) {
    const created = await createKey(database, id, { name, mode: key.mode, scopes: key.scopes as Scope[] | undefined }, OPERATOR);
    if (key.revoked) await revokeKey(database, id, created.id, OPERATOR);
    keys[name] = created.key;
    keyIds[name] = created.id;
  }
  out[label] = { id, keys, keyIds };
  if (label === "main") await createUser(database, id, { ...FIXTURE_SUPPORT, role: "support" }, OPERATOR);
  if (label === "other") await createUser(database, id, { ...FIXTURE_OUTSIDER, role: "admin" }, OPERATOR);
}
await closeDb();
process.stdout.write(JSON.stringify(out), () => process.exit(0));
