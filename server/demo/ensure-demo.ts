import type { Database } from "../db/client.ts";
import { createKey } from "../keys/create-key.ts";
import { createUser } from "../users/create-user.ts";
import { resetPassword } from "../users/reset-password.ts";
import { randomBase62 } from "../lib/ids.ts";
import { createWorkspace } from "../workspaces/create-workspace.ts";
import { OPERATOR } from "../lib/caller.ts";

export const DEMO_WORKSPACE_NAME = "Demo";
export const DEMO_ADMIN_EMAIL = "admin@demo.local";

export type DemoCredentials = {
  created: boolean;
  workspace: string;
  email: string;
  password: string | null;
  testKey: string | null;
  liveKey: string | null;
};

/**
 * Creates the demo workspace once (operations.md `svc demo`, and `npm start` on first start):
 * an admin user, a test key and a live key. Keys and the password are shown only when they
 * are created; later calls report the workspace and say they already exist. With
 * `renewPassword` (`svc demo` on an existing demo), the demo admin gets a new generated
 * password, returned so the demo can always be signed in to (only hashes are kept).
 */
export async function ensureDemo(database: Database, opts: { renewPassword?: boolean } = {}): Promise<DemoCredentials> {
  // Several servers started at once on one PostgreSQL database (docs/deploy.md "One process or many") would
  // each find no demo and each create one; the loser's user insert then failed and its server
  // exited. A transaction-scoped advisory lock makes the others wait and then find the demo.
  // The embedded store is held by one process, which creates the demo before anyone else can.
  if (database.engine === "postgres" && !database.shared) {
    return database.transaction(async (tx) => {
      await tx(`SELECT pg_advisory_xact_lock(hashtext('svc.ensure-demo'))`);
      return findOrCreateDemo(database, opts);
    });
  }
  return findOrCreateDemo(database, opts);
}

async function findOrCreateDemo(database: Database, opts: { renewPassword?: boolean }): Promise<DemoCredentials> {
  const existing = await database.prisma.user.findUnique({
    where: { email: DEMO_ADMIN_EMAIL },
    select: { memberships: { select: { workspaceId: true }, take: 1, orderBy: { createdAt: "asc" } } },
  });
  const ws = existing?.memberships[0]?.workspaceId;
  if (ws) {
    const password = opts.renewPassword
      ? (await resetPassword(database, ws, { email: DEMO_ADMIN_EMAIL, password: demoPassword() }, OPERATOR)).password
      : null;
    return { created: false, workspace: ws, email: DEMO_ADMIN_EMAIL, password, testKey: null, liveKey: null };
  }

  const { id: workspace } = await createWorkspace(database, { name: DEMO_WORKSPACE_NAME, plan: "pro", defaultCountry: "BR" }, OPERATOR);
  const password = demoPassword();
  await createUser(database, workspace, { email: DEMO_ADMIN_EMAIL, password, role: "admin", name: "Demo admin" }, OPERATOR);
  const test = await createKey(database, workspace, { mode: "test", name: "Demo test key" }, OPERATOR);
  const live = await createKey(database, workspace, { mode: "live", name: "Demo live key" }, OPERATOR);
  return { created: true, workspace, email: DEMO_ADMIN_EMAIL, password, testKey: test.key, liveKey: live.key };
}

function demoPassword(): string {
  return `demo-${randomBase62(12)}`;
}
