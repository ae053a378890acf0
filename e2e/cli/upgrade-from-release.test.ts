import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMigrations } from "../../server/db/apply-migrations.ts";
import { freshDatabase, queryDatabase, type Engine } from "../support/database.ts";
import { ROOT, startServer } from "../support/server.ts";
import { signIn } from "../support/sign-in.ts";
import { startReceiver } from "../support/webhook-receiver.ts";

// Issue 47: an upgrade from the previous release, from that release's own code. Its tree comes
// out of this repository's history, runs on this checkout's node_modules (its dependencies are a
// subset of these, same versions), migrates an empty database with its own migration code and
// writes every kind of object it kept through its own services and API procedures; then this
// release starts on that database (the plain start's migration path) and reads them back.

/**
 * The previous release: the last commit on main's first-parent line whose newest migration is
 * 20261126110000_count_live_messages (the one the kill test's PREVIOUS names), found with
 * `git rev-list --first-parent HEAD` and `git ls-tree <commit> prisma/migrations`; the next
 * commit on that line (6c64130) merges 20261127080821_drop_webhook_fanout.
 */
const RELEASE = "7bf97e947767c1814afeba563acacd745c3b1b78";
const AUTH_SECRET = "upgrade-test-secret-0123456789abcdef";
const run = promisify(execFile);

// Run inside the old tree with `node --import tsx`: every import is that release's own code.
// The keys are test keys (its test mode simulates sending, so no provider is needed); the run
// is advanced by one pipeline pass through its send step into the wait at steps.1. A pass ends
// once nothing is due (its budget only bounds it): the enrollment, the messages' first simulated
// step and their events' webhook deliveries are all due at once, whatever the machine's load.
const WRITER = `
import { closeDb, db } from "./server/db/client.ts";
import { applyMigrations } from "./server/db/migrate.ts";
import { createWorkspace } from "./server/workspaces/create-workspace.ts";
import { createKey } from "./server/keys/create-key.ts";
import { authenticateKey } from "./server/keys/authenticate-key.ts";
import { createEndpoint } from "./server/webhooks/create-endpoint.ts";
import { createFlow } from "./server/flows/save-flow.ts";
import { createUser } from "./server/users/create-user.ts";
import { runPipeline } from "./server/pipeline/run-pipeline.ts";
import { appRouter } from "./server/api/root.ts";
import { createCallerFactory } from "./server/api/trpc.ts";
import { OPERATOR } from "./server/lib/caller.ts";

const database = await db();
const migrated = await applyMigrations(database.adapter);
const { id: workspace } = await createWorkspace(database, { name: "Release" }, OPERATOR);
const all = await createKey(database, workspace, { mode: "test", name: "All" }, OPERATOR);
const chosen = await createKey(database, workspace, { mode: "test", name: "Chosen", scopes: ["contacts:read", "flows:read"] }, OPERATOR);
await createUser(database, workspace, { email: "owner@example.com", password: "release-password-1", role: "admin" }, OPERATOR);
const { caller: principal } = await authenticateKey(database, all.key);
const api = createCallerFactory(appRouter)({ db: database, principal, requestId: "req_release", appUrl: "http://localhost", responseHeaders: {} });
const tag = await api.tags.create({ name: "vip" });
const field = await api.fields.create({ name: "Plan", key: "plan", type: "text" });
const contact = await api.contacts.upsert({ email: "Ana@Example.com", name: "Ana", tags: [tag.id], fields: { plan: "gold" } });
const message = await api.messages.send({ channel: "email", to: { email: "Ana@Example.com" }, email: { subject: "Hello", html: "<p>Hi</p>" } });
const { flow_id } = await createFlow(database, workspace, {
  name: "Welcome",
  status: "active",
  steps: [
    { type: "send", channel: "email", email: { subject: "Welcome", html: "<p>Hi</p>" } },
    { type: "wait", duration: "P3D" },
    { type: "send", channel: "email", email: { subject: "Still there?", html: "<p>Hi</p>" } },
  ],
}, OPERATOR);
const enrolled = await api.flows.enroll({ flow_id, to: { contact_id: contact.id } });
const endpoint = await createEndpoint(database, workspace, { url: process.env.WEBHOOK_URL, events: ["mensagem.enviada"] }, OPERATOR);
await runPipeline(database, { budgetMs: 60_000 });
const [waiting] = await database.query("SELECT status::text AS status, position FROM flow_runs WHERE id = $1", [enrolled.id]);
console.log(JSON.stringify({
  migrated: migrated.length, workspace, allKey: all.key, chosenKey: chosen.key, tagId: tag.id, fieldId: field.id,
  contactId: contact.id, messageId: message.id, flowId: flow_id, runId: enrolled.id, waiting,
  endpointId: endpoint.id, secret: endpoint.secret,
}));
await closeDb();
process.exit(0); // its schema engine leaves a timer running, as its scripts/migrate.ts says
`;

type Written = {
  migrated: number;
  workspace: string;
  allKey: string;
  chosenKey: string;
  tagId: string;
  fieldId: string;
  contactId: string;
  messageId: string;
  flowId: string;
  runId: string;
  waiting: { status: string; position: unknown };
  endpointId: string;
  secret: string;
};

const cleanup: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
});

let oldTree = "";
/** The previous release's migrations, read from its tree. */
let releaseMigrations: string[] = [];

beforeAll(async () => {
  oldTree = mkdtempSync(join(tmpdir(), "svc-release-"));
  cleanup.push(() => rmSync(oldTree, { recursive: true, force: true }));
  await run("sh", ["-c", `git archive ${RELEASE} | tar x -C "${oldTree}"`], { cwd: ROOT });
  releaseMigrations = readdirSync(join(oldTree, "prisma", "migrations"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  expect(releaseMigrations.at(-1)).toBe("20261126110000_count_live_messages");
  // Its dependencies are all among this checkout's, at the same versions (checked here), so it
  // runs on these node_modules; its Prisma client is generated into its own tree by its own step.
  const mine = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, Record<string, string>>;
  const theirs = JSON.parse(readFileSync(join(oldTree, "package.json"), "utf8")) as Record<string, Record<string, string>>;
  const have = { ...mine.dependencies, ...mine.devDependencies };
  expect(Object.entries(theirs.dependencies!).filter(([name, range]) => have[name] !== range)).toEqual([]);
  symlinkSync(join(ROOT, "node_modules"), join(oldTree, "node_modules"), "dir");
  await run(process.execPath, ["scripts/generate.mjs", "--quiet"], { cwd: oldTree });
  writeFileSync(join(oldTree, "write-release.ts"), WRITER);
}, 60_000);

async function api(url: string, bearer: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${bearer}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & unknown[] };
}

describe.concurrent.each<Engine>(["pglite", "postgres"])("an upgrade from the previous release's own code on %s", (engine) => {
  it("keeps every object that release wrote, readable through this release's API", async () => {
    const db = await freshDatabase(engine, "upgrade");
    cleanup.push(db.drop);
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const env = { ...db.env, AUTH_SECRET };
    const { stdout } = await run(process.execPath, ["--import", "tsx", "write-release.ts"], {
      cwd: oldTree,
      env: { ...process.env, ...env, SVC_ROOT: oldTree, WEBHOOK_URL: receiver.url, ALLOW_PRIVATE_WEBHOOKS: "1", LOG_LEVEL: "silent" },
    });
    const old = JSON.parse(stdout.trim().split("\n").at(-1)!) as Written;
    // That release wrote with its own migrations, and left the run as it leaves a waiting one.
    expect(old.migrated).toBe(releaseMigrations.length);
    expect(old.waiting).toEqual({ status: "active", position: [2] });

    // That release's pipeline pass delivered the message's event, signed with the secret it showed.
    const before = receiver.received.length;
    expect(before).toBeGreaterThan(0);
    for (const hit of receiver.received)
      expect(new Webhook(old.secret).verify(hit.raw, hit.headers as Record<string, string>)).toBeTruthy();

    // This release's plain start: it applies its migrations, then serves (its pipeline on, for the test delivery).
    const server = await startServer({ ...env, ALLOW_PRIVATE_WEBHOOKS: "1", PIPELINE: "inline", PIPELINE_WORKERS: "0" });
    cleanup.push(() => server.stop());
    const { url } = server;
    // Every migration of this release is applied and finished, that release's among them.
    const rows = await queryDatabase(
      env,
      `SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY 1`,
    );
    expect(rows.map((r) => r.name)).toEqual(readMigrations().migrationDirectories.map((d) => d.path));
    const key = old.allKey;
    expect(await api(url, key, "GET", `/contacts/${old.contactId}`)).toMatchObject({
      status: 200,
      body: { id: old.contactId, email: "Ana@example.com", name: "Ana", tags: [old.tagId], fields: { plan: "gold" } },
    });
    expect((await api(url, key, "GET", "/tags")).body).toMatchObject([{ id: old.tagId, name: "vip" }]);
    expect((await api(url, key, "GET", "/custom-fields")).body).toMatchObject([{ id: old.fieldId, key: "plan", type: "text" }]);
    expect(await api(url, key, "GET", `/messages/${old.messageId}`)).toMatchObject({
      status: 200,
      body: { id: old.messageId, channel: "email", contact_id: old.contactId },
    });

    // The "all scopes" key reaches what this release added: contact events and webhook endpoints.
    expect(await api(url, key, "POST", "/events", { name: "order_paid", to: { contact_id: old.contactId } })).toMatchObject({
      status: 202,
    });
    const endpoints = await api(url, key, "GET", "/webhook-endpoints");
    expect(endpoints.status).toBe(200);
    expect((endpoints.body as { id: string; url: string }[]).map((e) => [e.id, e.url])).toEqual([[old.endpointId, receiver.url]]);
    // The endpoint kept its secret: a test delivery is signed with the one that release showed.
    const tested = await api(url, key, "POST", `/webhook-endpoints/${old.endpointId}/test`, {});
    expect(tested).toMatchObject({ status: 200, body: { succeeded: true } });
    // The attempt was answered before the call returned: the receiver holds it.
    const hits = receiver.received.slice(before).filter((r) => r.raw.includes(tested.body.event_id as string));
    expect(hits).toHaveLength(1);
    expect(new Webhook(old.secret).verify(hits[0]!.raw, hits[0]!.headers as Record<string, string>)).toMatchObject({ test: true });

    // A key with chosen scopes keeps exactly those.
    expect(await api(url, old.chosenKey, "GET", `/contacts/${old.contactId}`)).toMatchObject({ status: 200 });
    expect(await api(url, old.chosenKey, "GET", "/webhook-endpoints")).toMatchObject({
      status: 403,
      body: { error: { code: "missing_scope" } },
    });

    // Its dashboard user signs in with the password set then, and the audit log kept its entries.
    const cookie = await signIn(url, "owner@example.com", "release-password-1");
    const dashboard = async <T>(path: string, input?: unknown): Promise<T> => {
      const search = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
      const res = await fetch(`${url}/api/trpc/${path}${search}`, { headers: { Cookie: cookie, "x-svc-workspace": old.workspace } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { result: { data: T } }).result.data;
    };
    expect(await dashboard<{ email: string; role: string }[]>("team.list")).toMatchObject([{ email: "owner@example.com", role: "admin" }]);
    const audit = await dashboard<{ items: { action: string; target: { id: string | null } }[] }>("audit.list", { limit: 100 });
    expect(audit.items.map((e) => `${e.action} ${e.target.id}`)).toEqual(
      expect.arrayContaining([`webhook.created ${old.endpointId}`, `flow.created ${old.flowId}`]),
    );

    // The run that release left waiting is in its wait (steps.1), by GET /runs and by the statistics.
    expect(await api(url, key, "GET", `/runs/${old.runId}`)).toMatchObject({
      status: 200,
      body: { id: old.runId, flow_id: old.flowId, status: "active", current_step: { path: "steps.1" } },
    });
    const stats = await api(url, key, "GET", `/flows/${old.flowId}/stats`);
    const steps = (stats.body.versions as { steps: { path: string; waiting: number }[] }[])[0]!.steps;
    expect(steps.map((s) => [s.path, s.waiting])).toEqual([
      ["steps.0", 0],
      ["steps.1", 1],
      ["steps.2", 0],
    ]);
  });
});
