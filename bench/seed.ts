// Seeds one workspace with a raised rate limit, keys and an admin for the benchmark; prints JSON.
import { closeDb, db } from "../server/db/client.ts";
import { applyMigrations } from "../server/db/migrate.ts";
import { createKey } from "../server/keys/create-key.ts";
import { createUser } from "../server/users/create-user.ts";
import { createWorkspace } from "../server/workspaces/create-workspace.ts";
import { BENCH_ADMIN } from "./support.ts";
import { OPERATOR } from "../server/lib/caller.ts";

const database = await db();
await applyMigrations(database.migrationTarget);
const { id } = await createWorkspace(database, { name: "Bench", plan: "scale", rateLimit: 100_000_000, defaultCountry: "BR" }, OPERATOR);
const test = await createKey(database, id, { mode: "test", name: "bench test" }, OPERATOR);
const live = await createKey(database, id, { mode: "live", name: "bench live" }, OPERATOR);
await createUser(database, id, { ...BENCH_ADMIN, role: "admin" }, OPERATOR);
await closeDb();
process.stdout.write(JSON.stringify({ workspace: id, testKey: test.key, liveKey: live.key }), () => process.exit(0));
