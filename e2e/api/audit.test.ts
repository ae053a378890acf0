import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { queryDatabase } from "../support/database.ts";
import { FIXTURE_ADMIN } from "../support/fixtures.ts";
import { signIn } from "../support/sign-in.ts";
import { svc, svcJson } from "../support/svc.ts";

// The audit log (issue 15 "Team and audit"): every change of keys, webhooks, channels, flows,
// team membership and workspace settings leaves exactly one entry, written in the change's own
// transaction, whether it came from the dashboard or from the operator's CLI; a refused or
// rolled-back change leaves none. Then the Team page's rules: add, role, remove, reset, the
// last admin. On both engines, against the real server (and, on the embedded store, the CLI
// reaching it through the server's socket, D53).

const { baseUrl, env } = inject("api");
const ws = fixtures().audit!;
/** Tests that run the CLI: each run starts a process, slow on a loaded machine and on the embedded store. */
const WITH_CLI = 240_000;
const query = (sql: string, params: unknown[] = []) => queryDatabase(env, sql, params);

/**
 * A trigger's DDL. On Citus (the api-citus project, vitest.config.ts) a trigger on a distributed
 * table is taken (onto each shard, where the function was propagated) only when the session
 * says so: the product has none (D87), this one is the test's own.
 */
async function triggerDdl(sql: string): Promise<void> {
  if (process.env.SVC_CITUS !== "1") {
    await query(sql);
    return;
  }
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    await client.query("SET citus.enable_unsafe_triggers = on");
    await client.query(sql);
  } finally {
    await client.end();
  }
}

type Entry = {
  id: string;
  action: string;
  actor: { type: string; id: string | null; email?: string | null };
  target: { type: string; id: string | null };
};
type Page = { items: Entry[]; next: string | null };

const entriesFor = (targetId: string) =>
  query(
    `SELECT action, actor_type, actor_id, actor_label, detail FROM audit_events WHERE workspace_id = $1 AND target_id = $2 ORDER BY created_at, id`,
    [ws.id, targetId],
  );
const countAll = async () => Number((await query(`SELECT count(*)::int AS n FROM audit_events WHERE workspace_id = $1`, [ws.id]))[0]!.n);

/** A dashboard call that is expected to fail: its tRPC error. */
async function refused(path: string, input: unknown): Promise<{ status: number; code?: string; param?: string | null }> {
  const err = await dashboardMutation(ws.id, path, input).then(
    () => null,
    (e: Error) => e,
  );
  expect(err, `${path} should have failed`).not.toBeNull();
  const m = /: (\d+) (.*)$/s.exec(err!.message)!;
  const body = JSON.parse(m[2]!) as { data?: { code?: string; param?: string | null } };
  return { status: Number(m[1]), code: body.data?.code, param: body.data?.param };
}

const adminId = async () => String((await query(`SELECT id FROM users WHERE email = $1`, [FIXTURE_ADMIN.email]))[0]!.id);

describe("audit entries", () => {
  it("a dashboard change leaves exactly one entry, naming the signed-in user", async () => {
    const key = await dashboardMutation<{ id: string; key: string }>(ws.id, "keys.create", { name: "Audited key", mode: "test" });
    const rows = await entriesFor(key.id);
    expect(rows).toEqual([
      {
        action: "api_key.created",
        actor_type: "user",
        actor_id: await adminId(),
        actor_label: FIXTURE_ADMIN.email,
        detail: { name: "Audited key", mode: "test", scopes: expect.any(Array) },
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(key.key);
    const page = await dashboardQuery<Page>(ws.id, "audit.list", { action: "api_key.created" });
    expect(page.items[0]).toMatchObject({
      action: "api_key.created",
      actor: { type: "user", email: FIXTURE_ADMIN.email },
      target: { id: key.id },
    });
  });

  it(
    "a CLI change leaves exactly one entry, by the operator",
    async () => {
      const key = await svcJson(env, "key", "create", "--workspace", ws.id, "--mode", "live", "--name", "CLI key");
      expect(await entriesFor(String(key.id))).toEqual([
        {
          action: "api_key.created",
          actor_type: "cli",
          actor_id: null,
          actor_label: null,
          detail: { name: "CLI key", mode: "live", scopes: expect.any(Array) },
        },
      ]);
      await svcJson(env, "key", "revoke", "--workspace", ws.id, "--id", String(key.id));
      expect((await entriesFor(String(key.id))).map((r) => [r.action, r.actor_type])).toEqual([
        ["api_key.created", "cli"],
        ["api_key.revoked", "cli"],
      ]);
      // Revoking again changes nothing, and records nothing.
      await svcJson(env, "key", "revoke", "--workspace", ws.id, "--id", String(key.id));
      expect(await entriesFor(String(key.id))).toHaveLength(2);
    },
    WITH_CLI,
  );

  it(
    "webhooks, channels and flows: one entry per change, without secrets",
    async () => {
      const endpoint = await dashboardMutation<{ id: string; secret: string }>(ws.id, "webhooks.create", {
        url: "https://hooks.example.com/in?token=very-secret",
      });
      await dashboardMutation(ws.id, "webhooks.update", { endpoint_id: endpoint.id, enabled: false });
      await dashboardMutation(ws.id, "webhooks.rotateSecret", { endpoint_id: endpoint.id });
      const hooks = await entriesFor(endpoint.id);
      expect(hooks.map((r) => r.action)).toEqual(["webhook.created", "webhook.updated", "webhook.secret_rotated"]);
      expect(hooks[0]!.detail).toEqual({ url: "https://hooks.example.com/in", events: [] });
      expect(hooks[1]!.detail).toEqual({ url: "https://hooks.example.com/in", enabled: false });
      expect(JSON.stringify(hooks)).not.toMatch(/very-secret|whsec_/);

      const channel = await svcJson(
        env,
        "channel",
        "connect",
        "--workspace",
        ws.id,
        "--type",
        "email",
        "--smtp-url",
        "smtp://user:smtp-password@93.184.215.14:587",
        "--from",
        "news@audit.example",
      );
      const connected = await entriesFor(String(channel.channel_id));
      expect(connected).toEqual([
        expect.objectContaining({ action: "channel.connected", actor_type: "cli", detail: expect.objectContaining({ type: "email" }) }),
      ]);
      expect(JSON.stringify(connected)).not.toContain("smtp-password");
      await dashboardMutation(ws.id, "channels.disconnect", { channel_id: channel.channel_id });
      expect((await entriesFor(String(channel.channel_id))).map((r) => [r.action, r.actor_type])).toEqual([
        ["channel.connected", "cli"],
        ["channel.disconnected", "user"],
      ]);

      const flow = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
        definition: { name: "Audited flow", steps: [{ type: "wait", duration: "PT1H" }] },
      });
      await dashboardMutation(ws.id, "flows.setStatus", { flow_id: flow.flow_id, status: "active" });
      expect((await entriesFor(flow.flow_id)).map((r) => r.action)).toEqual(["flow.created", "flow.activated"]);
    },
    WITH_CLI,
  );

  it(
    "a refused change leaves no entry",
    async () => {
      const before = await countAll();
      expect(await refused("keys.revoke", { id: "key_doesnotexist" })).toMatchObject({ status: 404 });
      expect(await refused("webhooks.update", { endpoint_id: "wh_doesnotexist", enabled: true })).toMatchObject({ status: 404 });
      expect(await refused("flows.setStatus", { flow_id: "flow_doesnotexist", status: "active" })).toMatchObject({ status: 404 });
      const cli = await svc(env, "key", "revoke", "--workspace", ws.id, "--id", "key_doesnotexist", "--json");
      expect(cli.code).not.toBe(0);
      expect(await countAll()).toBe(before);
    },
    WITH_CLI,
  );

  it(
    "a change whose audit entry cannot be written is rolled back whole: neither the change nor an entry remains",
    async () => {
      const name = `explode-${Date.now()}`;
      await query(`
      CREATE OR REPLACE FUNCTION audit_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.detail->>'name' LIKE 'explode-%' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$`);
      await triggerDdl(`CREATE TRIGGER audit_test_refuse BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_test_refuse()`);
      try {
        const before = await countAll();
        expect((await refused("keys.create", { name, mode: "test" })).status).toBe(500);
        const cli = await svc(env, "key", "create", "--workspace", ws.id, "--mode", "test", "--name", `${name}-cli`, "--json");
        expect(cli.code).not.toBe(0);
        expect(await query(`SELECT id FROM api_keys WHERE workspace_id = $1 AND name LIKE 'explode-%'`, [ws.id])).toEqual([]);
        expect(await countAll()).toBe(before);
      } finally {
        await triggerDdl(`DROP TRIGGER audit_test_refuse ON audit_events`);
        await query(`DROP FUNCTION audit_test_refuse()`);
      }
    },
    WITH_CLI,
  );
});

describe("team", () => {
  it(
    "adds a new account with a password shown once, which signs in; an existing account keeps its own",
    async () => {
      const email = `new-${Date.now()}@audit.example`;
      const added = await dashboardMutation<{ id: string; created: boolean; password: string | null }>(ws.id, "team.add", {
        email,
        role: "support",
        name: "New Person",
      });
      expect(added.created).toBe(true);
      expect(added.password).toMatch(/^[0-9A-Za-z]{16}$/);
      await signIn(baseUrl, email, added.password!);
      expect(await entriesFor(added.id)).toEqual([
        expect.objectContaining({ action: "team.member_added", actor_type: "user", detail: { email, role: "support", new_account: true } }),
      ]);
      // Adding them again is refused: roles change on their own.
      expect(await refused("team.add", { email, role: "admin" })).toMatchObject({ status: 409, code: "already_member", param: "email" });
      // An account of another workspace joins with its own password.
      const outsider = `outsider-${Date.now()}@audit.example`;
      await svcJson(
        env,
        "user",
        "create",
        "--workspace",
        fixtures().other!.id,
        "--email",
        outsider,
        "--password",
        "outsider-pass-1",
        "--role",
        "admin",
      );
      const joined = await dashboardMutation<{ created: boolean; password: string | null }>(ws.id, "team.add", {
        email: outsider,
        role: "support",
      });
      expect(joined).toMatchObject({ created: false, password: null });
      await signIn(baseUrl, outsider, "outsider-pass-1");
    },
    WITH_CLI,
  );

  it(
    "changes a role, refuses to demote or remove the last admin, removes a member",
    async () => {
      const members = await dashboardQuery<{ user_id: string; email: string; role: string }[]>(ws.id, "team.list", undefined);
      const admins = members.filter((m) => m.role === "admin");
      expect(admins.map((m) => m.email)).toEqual([FIXTURE_ADMIN.email]);
      const me = admins[0]!.user_id;
      const before = await countAll();
      expect(await refused("team.changeRole", { user_id: me, role: "support" })).toMatchObject({
        status: 409,
        code: "last_admin",
        param: "role",
      });
      expect(await refused("team.remove", { user_id: me })).toMatchObject({ status: 409, code: "last_admin", param: "user_id" });
      const cli = await svc(
        env,
        "user",
        "create",
        "--workspace",
        ws.id,
        "--email",
        FIXTURE_ADMIN.email,
        "--password",
        "whatever-1",
        "--role",
        "support",
        "--json",
      );
      expect(cli.code).not.toBe(0);
      expect(JSON.parse(cli.stdout).error.code).toBe("last_admin");
      expect(await countAll()).toBe(before);

      const email = `promoted-${Date.now()}@audit.example`;
      const { id } = await svcJson(
        env,
        "user",
        "create",
        "--workspace",
        ws.id,
        "--email",
        email,
        "--password",
        "promoted-pass-1",
        "--role",
        "support",
      );
      await dashboardMutation(ws.id, "team.changeRole", { user_id: id, role: "admin" });
      // Now there are two admins: demoting one is allowed.
      await dashboardMutation(ws.id, "team.changeRole", { user_id: id, role: "support" });
      await dashboardMutation(ws.id, "team.remove", { user_id: id });
      expect((await entriesFor(String(id))).map((r) => [r.action, r.actor_type, (r.detail as { to?: string }).to ?? null])).toEqual([
        ["team.member_added", "cli", null],
        ["team.role_changed", "user", "admin"],
        ["team.role_changed", "user", "support"],
        ["team.member_removed", "user", null],
      ]);
      const after = await dashboardQuery<{ email: string }[]>(ws.id, "team.list", undefined);
      expect(after.map((m) => m.email)).not.toContain(email);
    },
    WITH_CLI,
  );

  it(
    "resets a password: the new one signs in, the old one and the member's sessions stop working",
    async () => {
      const email = `reset-${Date.now()}@audit.example`;
      const { id } = await svcJson(
        env,
        "user",
        "create",
        "--workspace",
        ws.id,
        "--email",
        email,
        "--password",
        "old-password-1",
        "--role",
        "support",
      );
      const cookie = await signIn(baseUrl, email, "old-password-1");
      const { password } = await dashboardMutation<{ password: string }>(ws.id, "team.resetPassword", { email });
      await signIn(baseUrl, email, password);
      await expect(signIn(baseUrl, email, "old-password-1")).rejects.toThrow();
      const res = await fetch(`${baseUrl}/api/trpc/workspaces.mine`, { headers: { Cookie: cookie } });
      expect(res.status).toBe(401);
      const rows = await entriesFor(String(id));
      expect(rows.map((r) => [r.action, r.actor_type])).toEqual([
        ["team.member_added", "cli"],
        ["team.password_reset", "user"],
      ]);
      expect(JSON.stringify(rows)).not.toContain(password);
      // The CLI's reset is recorded as the operator's.
      await svcJson(env, "user", "reset-password", "--workspace", ws.id, "--email", email, "--password", "cli-password-1");
      expect((await entriesFor(String(id))).map((r) => r.actor_type)).toEqual(["cli", "user", "cli"]);
    },
    WITH_CLI,
  );
});

describe("audit page query", () => {
  it("filters by action and actor and pages newest first", async () => {
    const all: Entry[] = [];
    let after: string | undefined;
    do {
      const page: Page = await dashboardQuery<Page>(ws.id, "audit.list", { limit: 3, ...(after ? { after } : {}) });
      all.push(...page.items);
      after = page.next ?? undefined;
    } while (after);
    expect(all.length).toBe(await countAll());
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    const cli = await dashboardQuery<Page>(ws.id, "audit.list", { actor: "cli", limit: 100 });
    expect(cli.items.length).toBeGreaterThan(0);
    expect(cli.items.every((e) => e.actor.type === "cli")).toBe(true);
    const me = await dashboardQuery<Page>(ws.id, "audit.list", {
      actor: `user:${await adminId()}`,
      action: "team.role_changed",
      limit: 100,
    });
    expect(me.items.length).toBeGreaterThan(0);
    expect(me.items.every((e) => e.action === "team.role_changed" && e.actor.type === "user")).toBe(true);
    // Another workspace's entries are not this one's.
    const other = await dashboardQuery<Page>(fixtures().other!.id, "audit.list", { limit: 100 });
    expect(other.items.some((e) => all.some((a) => a.id === e.id))).toBe(false);
  });
});
