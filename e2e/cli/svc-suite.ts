import { execFileSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createSocket } from "node:dgram";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { ALL_SCOPES } from "../../server/keys/scopes.ts";
import { verifyPassword } from "../../server/lib/crypto.ts";
import { startDnsServer, type DnsFixture } from "../support/dns-server.ts";
import { ROOT } from "../support/server.ts";
import { svc, svcJson } from "../support/svc.ts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The operator CLI of operations.md, run as a real child process (`node bin/svc.mjs`) on both
// engines: a fresh embedded store (PGlite) and a fresh PostgreSQL database. One database per
// engine for the whole suite; what the CLI wrote is checked directly in the database. Each
// engine's suite is its own test file (svc-pglite.test.ts, svc-postgres.test.ts): in one file
// the two ran one after the other for about 400 s, the longest file of the run.

// Each case starts several CLI processes; on a loaded 2-core machine one start took 20-70 s.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const PG_ADMIN_URL = process.env.SVC_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/**
 * A failed `--json` run: the exit status, the reason on stderr, and exactly one JSON object on
 * stdout, `{"error":{"code","message"}}`; returns the error.
 */
function jsonFailure(run: { code: number | null; stdout: string; stderr: string }, exit: number): { code: string; message: string } {
  expect(run.code, run.stderr).toBe(exit);
  expect(run.stdout.endsWith("\n")).toBe(true);
  expect(run.stdout.trim().split("\n")).toHaveLength(1);
  const value = JSON.parse(run.stdout) as { error: { code: string; message: string } };
  expect(Object.keys(value)).toEqual(["error"]);
  expect(Object.keys(value.error)).toEqual(["code", "message"]);
  expect(value.error.message).toEqual(expect.any(String));
  expect(run.stderr).toContain(value.error.message);
  return value.error;
}

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

type EngineName = "pglite" | "postgres";

type Engine = {
  key: EngineName;
  name: string;
  setup(): Promise<{ env: Record<string, string>; query: Query; teardown(): Promise<void> }>;
};

const engines: Engine[] = [
  {
    key: "pglite",
    name: "embedded store (PGlite)",
    async setup() {
      const dataDir = mkdtempSync(join(tmpdir(), "svc-cli-pglite-"));
      return {
        env: { DATA_DIR: dataDir },
        // Opened only between CLI runs: the store takes one process at a time.
        async query(sql, params) {
          const client = await PGlite.create(join(dataDir, "pglite"));
          try {
            return (await client.query<Record<string, unknown>>(sql, params)).rows;
          } finally {
            await client.close();
          }
        },
        async teardown() {
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    key: "postgres",
    name: "PostgreSQL",
    async setup() {
      const name = `svc_cli_${randomBytes(4).toString("hex")}`;
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(PG_ADMIN_URL);
      url.pathname = `/${name}`;
      const dataDir = mkdtempSync(join(tmpdir(), "svc-cli-pg-"));
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      return {
        env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
        async query(sql, params) {
          return (await client.query<Record<string, unknown>>(sql, params)).rows;
        },
        async teardown() {
          await client.end();
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.end();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];

/** The commands' usage, help and bad-usage errors, which need no database. */
export function usageTests(): void {
  describe("svc usage (no database)", () => {
    const env = { DATA_DIR: join(tmpdir(), "svc-cli-unused") };

    it("svc --help lists the commands on stdout", async () => {
      const run = await svc(env, "--help");
      expect(run.code).toBe(0);
      for (const command of [
        "workspace create",
        "key create",
        "key revoke",
        "user create",
        "channel connect",
        "webhook create",
        "flow import",
        "demo",
      ])
        expect(run.stdout).toContain(command);
    });

    it("npx svc runs the CLI as the README does, from any directory of the project, through node_modules/.bin", async () => {
      // The link `npm ci` makes from the packages/cli workspace, and no bin in the project's own
      // package.json: npm 11 runs a project's own bin only after loading every installed package.
      expect(realpathSync(join(ROOT, "node_modules", ".bin", "svc"))).toBe(join(ROOT, "packages", "cli", "svc.mjs"));
      expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))).not.toHaveProperty("bin");
      const stdout = execFileSync("npx", ["svc", "--help"], {
        cwd: join(ROOT, "server"),
        env: { ...process.env, ...env },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
      expect(stdout).toContain("workspace create");
    });

    it("svc <command> --help prints that command's options", async () => {
      const run = await svc(env, "workspace", "create", "--help");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Usage: svc workspace create --name NAME");
      expect(run.stdout).toContain("--monthly-limit N|none");
    });

    // Bad usage: exit status 2, nothing on stdout, the reason on stderr.
    it.each([
      { name: "an unknown command", args: ["frobnicate"], stderr: ['unknown command "frobnicate"'] },
      { name: "an unknown flag", args: ["workspace", "create", "--name", "X", "--colour", "red"], stderr: ["unknown option --colour"] },
      {
        name: "an unknown scope",
        args: ["key", "create", "--workspace", "w", "--mode", "test", "--scopes", "tags:read,tags:delete"],
        stderr: ["unknown scope tags:delete", "messages:send"],
      },
    ])("$name is refused with exit status 2", async ({ args, stderr }) => {
      const run = await svc(env, ...args, "--json");
      expect(jsonFailure(run, 2).code).toBe("usage");
      for (const text of stderr) expect(run.stderr).toContain(text);
    });
  });
}

/** Every command against a fresh database of `which` engine. */
export function engineTests(which: EngineName): void {
  describe.each(engines.filter((e) => e.key === which))("svc on the $name", (engine) => {
    let env: Record<string, string>;
    let query: Query;
    let teardown: (() => Promise<void>) | undefined;
    let workspace = "";

    beforeAll(async () => {
      ({ env, query, teardown } = await engine.setup());
    });
    afterAll(async () => {
      await teardown?.();
    });

    it("workspace create prints the identifier and stores the limits, --monthly-limit none included", async () => {
      const out = await svcJson(
        env,
        ...["workspace", "create", "--name", "Acme Ltda", "--plan", "pro", "--rate-limit", "60", "--daily-limit", "5"],
        ...["--monthly-limit", "none", "--default-country", "br"],
      );
      expect(Object.keys(out)).toEqual(["workspace"]);
      expect(out.workspace).toMatch(/^acme-ltda-[a-z0-9]{6}$/);
      workspace = out.workspace as string;
      const [row] = await query(
        "SELECT name, plan::text AS plan, rate_limit, daily_limit, monthly_limit, monthly_limit_set, default_country FROM workspaces WHERE id = $1",
        [workspace],
      );
      expect(row).toEqual({
        name: "Acme Ltda",
        plan: "pro",
        rate_limit: 60,
        daily_limit: 5,
        monthly_limit: null,
        monthly_limit_set: true,
        default_country: "BR",
      });
    });

    it("key create with --scopes stores exactly those scopes; without, all scopes as such (including later ones)", async () => {
      const live = await svcJson(
        env,
        "key",
        "create",
        "--workspace",
        workspace,
        "--mode",
        "live",
        "--scopes",
        "tags:read, contacts:read",
        "--name",
        "CI",
      );
      expect(Object.keys(live).sort()).toEqual(["id", "key"]);
      expect(live.id).toMatch(/^key_[0-9A-Za-z]+$/);
      expect(live.key).toMatch(/^svc_live_[0-9A-Za-z]{32,}$/);

      // Human-readable output shows the key too.
      const text = await svc(env, "key", "create", "--workspace", workspace, "--mode", "test");
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/svc_test_[0-9A-Za-z]{32,}/);
      expect(text.stdout).toContain("(scopes: all, including scopes added later)");
      const testId = /key_[0-9A-Za-z]+/.exec(text.stdout)?.[0];

      const rows = await query(
        "SELECT id, name, mode::text AS mode, scopes, revoked_at FROM api_keys WHERE workspace_id = $1 ORDER BY mode",
        [workspace],
      );
      expect(rows).toEqual([
        { id: live.id, name: "CI", mode: "live", scopes: ["tags:read", "contacts:read"], revoked_at: null },
        {
          id: testId,
          name: "API key",
          mode: "test",
          scopes: [ALL_SCOPES], // the marker, not today's list: the key also holds scopes added later
          revoked_at: null,
        },
      ]);

      const revoked = await svcJson(env, "key", "revoke", "--workspace", workspace, "--id", String(testId));
      expect(revoked).toEqual({ revoked: true });
      const [row] = await query("SELECT revoked_at FROM api_keys WHERE id = $1", [testId]);
      expect(row?.revoked_at).toBeInstanceOf(Date);
    });

    it("user create adds a user with a membership", async () => {
      const out = await svcJson(
        env,
        "user",
        "create",
        "--workspace",
        workspace,
        "--email",
        "Ops@Example.com",
        "--password",
        "s3cret-pass",
        "--role",
        "support",
      );
      expect(Object.keys(out)).toEqual(["id"]);
      expect(out.id).toMatch(/^usr_/);
      const rows = await query(
        "SELECT u.email, m.role::text AS role FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = $1 AND m.workspace_id = $2",
        [out.id, workspace],
      );
      expect(rows).toEqual([{ email: "ops@example.com", role: "support" }]);
    });

    it("channel connect --type whatsapp stores the channel with its secrets sealed", async () => {
      const out = await svcJson(
        { ...env, ALLOW_PRIVATE_WEBHOOKS: "1" },
        ...["channel", "connect", "--workspace", workspace, "--type", "whatsapp", "--phone-number-id", "106540352242922"],
        ...[
          "--access-token",
          "EAAG-cli-token",
          "--app-secret",
          "cli-app-secret",
          "--verify-token",
          "cli-verify",
          "--api-base-url",
          "http://127.0.0.1:9/v21.0",
        ],
      );
      // Everything the text shows, --json carries too (issue 46): the callback URL to set in Meta's app.
      expect(out).toEqual({
        channel_id: expect.stringMatching(/^ch_[0-9A-Za-z]+$/),
        callback_url: expect.stringMatching(/\/api\/providers\/whatsapp$/),
      });
      const [row] = await query(
        "SELECT workspace_id, type::text AS type, external_id, settings, secrets, rate_per_second, disconnected_at FROM channels WHERE id = $1",
        [out.channel_id],
      );
      expect(row).toMatchObject({
        workspace_id: workspace,
        type: "whatsapp",
        external_id: "106540352242922",
        settings: { api_base_url: "http://127.0.0.1:9/v21.0" },
        rate_per_second: 80,
        disconnected_at: null,
      });
      expect(row!.secrets).toMatch(/^v1\./);
      expect(String(row!.secrets)).not.toMatch(/EAAG-cli-token|cli-app-secret|cli-verify/);
    });

    it("channel connect --type email prints the events token once, in its text and its --json", async () => {
      const args = ["channel", "connect", "--workspace", workspace, "--type", "email", "--smtp-url", "smtp://relay:pw@127.0.0.1:2525"];
      const out = await svcJson(
        { ...env, ALLOW_PRIVATE_WEBHOOKS: "1" },
        ...args,
        ...["--from", "News@Shop.Example.com", "--tracking-base-url", "https://t.example.com/"],
      );
      // issue 46: --json lacked the token its text shows once, so a script could never learn it.
      expect(out).toEqual({
        channel_id: expect.stringMatching(/^ch_[0-9A-Za-z]+$/),
        events_token: expect.stringMatching(new RegExp(`^${String(out.channel_id)}\\.[0-9A-Za-z]{40}$`)),
        events_url: expect.stringMatching(/\/api\/providers\/email\/events$/),
        ses_notifications_url: expect.stringMatching(new RegExp(`/api/providers/email/ses/${String(out.channel_id)}$`)),
      });
      const [row] = await query("SELECT type::text AS type, external_id, settings, secrets FROM channels WHERE id = $1", [out.channel_id]);
      expect(row).toMatchObject({
        type: "email",
        external_id: "News@shop.example.com",
        settings: { from: "News@shop.example.com", smtp_server: "smtp://127.0.0.1:2525", tracking_base_url: "https://t.example.com" },
      });
      expect(String(row!.secrets)).not.toContain("pw@");

      const text = await svc({ ...env, ALLOW_PRIVATE_WEBHOOKS: "1" }, ...args, "--from", "ops@example.com");
      expect(text.code).toBe(0);
      const channelId = /ch_[0-9A-Za-z]+/.exec(text.stdout)?.[0];
      expect(text.stdout).toMatch(new RegExp(`${channelId}\\.[0-9A-Za-z]{40}`));
      expect(text.stdout).toContain("/api/providers/email/events");
    });

    it("channel connect --type sms stores the Twilio account and prints its status callback URL (D94)", async () => {
      const sid = `AC${"0123456789abcdef".repeat(2)}`;
      const args = [
        "channel",
        "connect",
        "--workspace",
        workspace,
        "--type",
        "sms",
        "--account-sid",
        sid,
        "--auth-token",
        "cli-twilio-token",
      ];
      const out = await svcJson(
        { ...env, ALLOW_PRIVATE_WEBHOOKS: "1" },
        ...args,
        "--from",
        "+15017122661",
        "--api-base-url",
        "http://127.0.0.1:9",
      );
      expect(out).toEqual({
        channel_id: expect.stringMatching(/^ch_[0-9A-Za-z]+$/),
        status_callback_url: expect.stringMatching(new RegExp(`/api/providers/sms/twilio/${String(out.channel_id)}$`)),
      });
      const [row] = await query("SELECT type::text AS type, external_id, settings, secrets FROM channels WHERE id = $1", [out.channel_id]);
      expect(row).toMatchObject({ type: "sms", external_id: sid, settings: { from: "+15017122661", api_base_url: "http://127.0.0.1:9" } });
      expect(String(row!.secrets)).not.toContain("cli-twilio-token");
      // Exactly one sender: a phone number or a Messaging Service.
      const neither = await svc(env, ...args);
      expect(neither).toMatchObject({ code: 2, stdout: "" });
      expect(neither.stderr).toContain("--from or --messaging-service-sid");
      const service = await svcJson(env, ...args, "--messaging-service-sid", `MG${"fedcba9876543210".repeat(2)}`);
      const [serviceRow] = await query("SELECT settings FROM channels WHERE id = $1", [service.channel_id]);
      expect(serviceRow!.settings).toEqual({ messaging_service_sid: `MG${"fedcba9876543210".repeat(2)}` });
      const wrong = await svc(env, "channel", "connect", "--workspace", workspace, "--type", "whatsapp", "--account-sid", sid);
      expect(wrong.stderr).toContain("--account-sid is only for --type sms");
    });

    it.each([
      {
        name: "a loopback Graph API base",
        args: [
          "--type",
          "whatsapp",
          "--phone-number-id",
          "1",
          "--access-token",
          "t",
          "--app-secret",
          "s",
          "--verify-token",
          "v",
          "--api-base-url",
          "http://127.0.0.1:9",
        ],
        flag: "--api-base-url",
      },
      {
        name: "a private SMTP host",
        args: ["--type", "email", "--smtp-url", "smtps://192.168.1.20", "--from", "a@example.com"],
        flag: "--smtp-url",
      },
    ])("channel connect refuses $name without ALLOW_PRIVATE_WEBHOOKS=1", async ({ args, flag }) => {
      const [before] = await query("SELECT count(*)::int AS n FROM channels");
      const run = await svc({ ...env, ALLOW_PRIVATE_WEBHOOKS: "0" }, "channel", "connect", "--workspace", workspace, ...args, "--json");
      expect(jsonFailure(run, 1).code).toBe("private_address");
      expect(run.stderr).toContain(`invalid ${flag}`);
      expect(run.stderr).toContain("ALLOW_PRIVATE_WEBHOOKS=1");
      const [after] = await query("SELECT count(*)::int AS n FROM channels");
      expect(after!.n).toBe(before!.n);
    });

    it("webhook create prints the id and the secret once; the secret is stored sealed", async () => {
      const out = await svcJson(
        { ...env, ALLOW_PRIVATE_WEBHOOKS: "1" },
        ...[
          "webhook",
          "create",
          "--workspace",
          workspace,
          "--url",
          "http://127.0.0.1:9/hooks",
          "--events",
          "mensagem.enviada,contato.criado",
        ],
      );
      expect(Object.keys(out)).toEqual(["id", "secret"]);
      expect(out.id).toMatch(/^we_/);
      expect(out.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
      const [endpoint] = await query("SELECT url, events, enabled FROM webhook_endpoints WHERE id = $1", [out.id]);
      expect(endpoint).toEqual({ url: "http://127.0.0.1:9/hooks", events: ["mensagem.enviada", "contato.criado"], enabled: true });
      const [secret] = await query("SELECT secret FROM webhook_secrets WHERE endpoint_id = $1", [out.id]);
      expect(secret!.secret).toMatch(/^v1\./);
      expect(JSON.stringify(secret)).not.toContain(out.secret);
      // (ALLOW_PRIVATE_WEBHOOKS=1 only because this machine has no DNS to check the host with.)
      const all = await svcJson(
        { ...env, ALLOW_PRIVATE_WEBHOOKS: "1" },
        "webhook",
        "create",
        "--workspace",
        workspace,
        "--url",
        "https://hooks.example.com/svc",
      );
      const [every] = await query("SELECT events FROM webhook_endpoints WHERE id = $1", [all.id]);
      expect(every!.events).toEqual([]);
    });

    // D30 and D34 at registration: https only, and never a private address, unless the operator allows it.
    it.each([
      { name: "an http URL", url: "http://hooks.example.com/x", stderr: "must be an https URL", code: "parameter_invalid" },
      { name: "a loopback address", url: "https://127.0.0.1/x", stderr: "loopback or private" },
      { name: "localhost", url: "https://localhost:8443/x", stderr: "loopback or private" },
      { name: "IPv6 loopback", url: "https://[::1]/x", stderr: "loopback or private" },
      { name: "a private network", url: "https://10.1.2.3/x", stderr: "loopback or private" },
      { name: "cloud metadata", url: "https://169.254.169.254/latest/meta-data", stderr: "loopback or private" },
      { name: "an IPv4-mapped private address", url: "https://[::ffff:192.168.0.1]/x", stderr: "loopback or private" },
      { name: "an http URL on this machine", url: "http://localhost:4000/hook", stderr: "loopback or private" },
    ] as { name: string; url: string; stderr: string; code?: string }[])(
      "webhook create refuses $name without ALLOW_PRIVATE_WEBHOOKS=1",
      async ({ url, stderr, code }) => {
        const [before] = await query("SELECT count(*)::int AS n FROM webhook_endpoints");
        const run = await svc(
          { ...env, ALLOW_PRIVATE_WEBHOOKS: "0" },
          "webhook",
          "create",
          "--workspace",
          workspace,
          "--url",
          url,
          "--json",
        );
        expect(jsonFailure(run, 1).code).toBe(code ?? "private_address");
        expect(run.stderr).toContain("invalid --url");
        expect(run.stderr).toContain(stderr);
        // A local address names the ways to receive events locally (issue 46: it said only "must be an https URL").
        if (!code) expect(run.stderr).toMatch(/svc listen --forward-to URL.*ALLOW_PRIVATE_WEBHOOKS=1/);
        const [after] = await query("SELECT count(*)::int AS n FROM webhook_endpoints");
        expect(after!.n).toBe(before!.n);
      },
    );

    it("webhook create refuses an unknown event name", async () => {
      const run = await svc(
        env,
        "webhook",
        "create",
        "--workspace",
        workspace,
        "--url",
        "https://h.example.com",
        "--events",
        "contato.inventado",
        "--json",
      );
      jsonFailure(run, 1);
      expect(run.stderr).toContain("invalid --events");
    });

    it("flow import creates the flow from a D37 file, with --status overriding the file's", async () => {
      const file = join(mkdtempSync(join(tmpdir(), "svc-flow-")), "welcome.json");
      writeFileSync(
        file,
        JSON.stringify({
          name: "Welcome",
          status: "draft",
          steps: [
            { type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}" } },
            { type: "wait", duration: "PT1H" },
            { type: "exit" },
          ],
        }),
      );
      const out = await svcJson(env, "flow", "import", "--workspace", workspace, "--file", file, "--status", "active");
      expect(Object.keys(out)).toEqual(["flow_id", "version"]);
      expect(out.flow_id).toMatch(/^flow_/);
      expect(out.version).toBe(1);
      const [flow] = await query("SELECT name, status::text AS status, version FROM flows WHERE id = $1", [out.flow_id]);
      expect(flow).toEqual({ name: "Welcome", status: "active", version: 1 });
      const [version] = await query("SELECT steps FROM flow_versions WHERE flow_id = $1", [out.flow_id]);
      expect((version!.steps as unknown[]).length).toBe(3);
      const draft = await svcJson(env, "flow", "import", "--workspace", workspace, "--file", file);
      const [kept] = await query("SELECT status::text AS status FROM flows WHERE id = $1", [draft.flow_id]);
      expect(kept!.status).toBe("draft");
    });

    it("flow import refuses a faulty definition with the fault's path, and writes nothing", async () => {
      const file = join(mkdtempSync(join(tmpdir(), "svc-flow-")), "bad.json");
      writeFileSync(file, JSON.stringify({ name: "Bad", steps: [{ type: "exit" }, { type: "branch", if: { has_tag: "tag_missing" } }] }));
      const [before] = await query("SELECT count(*)::int AS n FROM flows");
      const run = await svc(env, "flow", "import", "--workspace", workspace, "--file", file, "--json");
      expect(jsonFailure(run, 1).code).toBe("unknown_tag");
      expect(run.stderr).toContain("steps.1.if.has_tag");
      const [after] = await query("SELECT count(*)::int AS n FROM flows");
      expect(after!.n).toBe(before!.n);
      const missing = await svc(env, "flow", "import", "--workspace", workspace, "--file", "/nonexistent/flow.json", "--json");
      expect(missing.code).toBe(2);
    });

    // D74/D85: DKIM on connect, and `svc channel dns` against a real DNS server (dns2 on loopback).
    describe("DKIM and channel dns", () => {
      let dns: DnsFixture;
      let ws = "";
      const from = "News@Shop.Example.com";
      const connect = (...extra: string[]) =>
        svc(
          { ...env, ALLOW_PRIVATE_WEBHOOKS: "1" },
          ...["channel", "connect", "--workspace", ws, "--type", "email", "--smtp-url", "smtp://relay:pw@127.0.0.1:2525", "--from", from],
          ...extra,
          "--json",
        );
      beforeAll(async () => {
        dns = await startDnsServer();
        ws = String((await svcJson(env, "workspace", "create", "--name", "DKIM Co")).workspace);
      });
      afterAll(async () => {
        await dns?.close();
      });

      it("channel connect --dkim-selector seals a generated key; channel dns reports missing, then verified, then mismatch", async () => {
        const run = await connect("--bounce-domain", "Bounces.Shop.Example.com", "--dkim-selector", "svc2026");
        expect(run.code, run.stderr).toBe(0);
        const { channel_id } = JSON.parse(run.stdout) as { channel_id: string };
        const [row] = await query("SELECT settings, secrets FROM channels WHERE id = $1", [channel_id]);
        const settings = row!.settings as Record<string, string>;
        expect(settings).toMatchObject({ dkim_selector: "svc2026", dkim_public_key: expect.stringMatching(/^MIIBIjAN[A-Za-z0-9+/]+=*$/) });
        expect(String(row!.secrets)).not.toContain("PRIVATE KEY");

        const dnsEnv = { ...env, DNS_SERVERS: dns.server };
        let last = { dmarc: {}, ready: false };
        const check = async () => {
          const out = await svcJson(dnsEnv, "channel", "dns", "--workspace", ws, "--channel", channel_id);
          expect(Object.keys(out)).toEqual(["records", "dmarc", "ready"]); // D92
          last = out as typeof last;
          const records = out.records as { type: string; name: string; value: string; status: string; found?: string[] }[];
          // `found` only where the text shows it: a record not verified, with what DNS answered.
          for (const r of records) expect(Object.keys(r)).toEqual(["type", "name", "value", "status", ...(r.found ? ["found"] : [])]);
          return records;
        };
        const missing = await check();
        const dkim = `v=DKIM1; k=rsa; p=${settings.dkim_public_key}`;
        expect(missing).toEqual([
          { type: "TXT", name: "svc2026._domainkey.shop.example.com", value: dkim, status: "missing" },
          { type: "TXT", name: "bounces.shop.example.com", value: "v=spf1 ip4:127.0.0.1 ~all", status: "missing" },
          { type: "TXT", name: "_dmarc.shop.example.com", value: "v=DMARC1; p=none", status: "missing" },
          { type: "MX", name: "bounces.shop.example.com", value: expect.stringMatching(/^10 \S+$/), status: "missing" },
        ]);

        for (const r of missing) {
          if (r.type === "TXT") dns.txt(r.name, r.value);
          else dns.mx(r.name, { priority: 10, exchange: r.value.split(" ")[1]! });
        }
        expect(last).toMatchObject({ dmarc: { aligned: false, policy: null }, ready: false });
        expect((await check()).map((r) => r.status)).toEqual(["verified", "verified", "verified", "verified"]);
        // D92: the one verdict, as the API's dns-check gives it.
        expect(last).toMatchObject({ dmarc: { aligned: true, policy: "none" }, ready: true });

        dns.txt("svc2026._domainkey.shop.example.com", "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotours");
        const mismatch = await check();
        expect(mismatch.map((r) => r.status)).toEqual(["mismatch", "verified", "verified", "verified"]);
        expect(last).toMatchObject({ dmarc: { aligned: true, policy: "none" }, ready: false });
        // What the text shows as found, --json carries (issue 46).
        expect(mismatch[0]!.found).toEqual(["v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotours"]);

        // The human output says the same, one record a line.
        const text = await svc(dnsEnv, "channel", "dns", "--workspace", ws, "--channel", channel_id);
        expect(text.code).toBe(0);
        expect(text.stdout).toMatch(/MISMATCH\s+TXT\s+svc2026\._domainkey\.shop\.example\.com/);
        expect(text.stdout).toContain("found: v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotours");
        expect(text.stdout).toMatch(/verified\s+MX\s+bounces\.shop\.example\.com/);
        expect(text.stdout).toMatch(/DMARC:\s+aligned, policy none\nReady:\s+NO/);

        // D92: a resolver that cannot be reached is a failed lookup, never a record "missing".
        const closed = createSocket("udp4");
        await new Promise<void>((resolve) => closed.bind(0, "127.0.0.1", resolve));
        const unreachable = `127.0.0.1:${closed.address().port}`;
        closed.close(); // nothing listens there now
        const failed = await svcJson({ ...env, DNS_SERVERS: unreachable }, "channel", "dns", "--workspace", ws, "--channel", channel_id);
        for (const r of failed.records as { status: string; error?: string }[]) {
          expect(r).toMatchObject({ status: "lookup_failed", error: expect.stringMatching(/DNS server/) });
        }
        const failedText = await svc({ ...env, DNS_SERVERS: unreachable }, "channel", "dns", "--workspace", ws, "--channel", channel_id);
        expect(failedText.stdout).toMatch(/NO ANSWER\s+TXT\s+svc2026\._domainkey\.shop\.example\.com/);
        expect(failedText.stdout).toContain("lookup failed: the DNS server");
        expect(failedText.stdout).not.toContain("MISSING");
        expect(failed).toMatchObject({ dmarc: { aligned: false, policy: null }, ready: false });
      });

      it("bad DKIM input is refused with the flag that carried it, and writes nothing", async () => {
        const dir = mkdtempSync(join(tmpdir(), "svc-dkim-"));
        const [before] = await query("SELECT count(*)::int AS n FROM channels");
        try {
          const notAKey = join(dir, "not-a-key.pem");
          writeFileSync(notAKey, "hello, I am not a key\n");
          const bad = await connect("--dkim-selector", "svc", "--dkim-private-key-file", notAKey);
          expect(jsonFailure(bad, 1).code).toBe("parameter_invalid");
          expect(bad.stderr).toContain("invalid --dkim-private-key-file: The DKIM private key must be a PEM private key");

          const ed25519 = join(dir, "ed25519.pem");
          writeFileSync(ed25519, generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }));
          const ed = await connect("--dkim-selector", "svc", "--dkim-private-key-file", ed25519);
          expect(jsonFailure(ed, 1).code).toBe("parameter_invalid");
          expect(ed.stderr).toContain("invalid --dkim-private-key-file: The DKIM private key is an Ed25519 key");

          const selector = await connect("--dkim-selector", "my_selector!");
          expect(jsonFailure(selector, 1).code).toBe("invalid_input");
          expect(selector.stderr).toContain("invalid --dkim-selector");

          const absent = await connect("--dkim-selector", "svc", "--dkim-private-key-file", join(dir, "absent.pem"));
          expect(jsonFailure(absent, 2).code).toBe("usage");
          expect(absent.stderr).toContain("--dkim-private-key-file: cannot read");

          const alone = await connect("--dkim-private-key-file", notAKey);
          expect(jsonFailure(alone, 2).code).toBe("usage");
          expect(alone.stderr).toContain("--dkim-private-key-file needs --dkim-selector");
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        const [after] = await query("SELECT count(*)::int AS n FROM channels");
        expect(after!.n).toBe(before!.n);
      });

      it("channel dns of a WhatsApp channel or an unknown id is not found", async () => {
        const run = await svc(env, "channel", "dns", "--workspace", ws, "--channel", "ch_nope", "--json");
        expect(jsonFailure(run, 1).code).toBe("resource_missing");
        expect(run.stderr).toContain("No such e-mail channel");
      });
    });

    it("channel connect refuses flags of the other type as bad usage", async () => {
      const run = await svc(
        env,
        "channel",
        "connect",
        "--workspace",
        workspace,
        "--type",
        "email",
        "--smtp-url",
        "smtp://a.example.com",
        "--from",
        "a@example.com",
        "--app-secret",
        "s",
      );
      expect(run).toMatchObject({ code: 2, stdout: "" });
      expect(run.stderr).toContain("--app-secret is only for --type whatsapp");
      // With --json the same refusal is one JSON object on stdout too.
      const json = await svc(env, "channel", "connect", "--workspace", workspace, "--type", "email", "--app-secret", "s", "--json");
      expect(jsonFailure(json, 2)).toMatchObject({ code: "usage", message: expect.stringContaining("--app-secret") });
    });

    // Failures: exit status 1, the reason on stderr and, with --json, one JSON object on stdout
    // whose code is the service's error code.
    it.each([
      {
        name: "key revoke of an unknown key",
        args: () => ["key", "revoke", "--workspace", workspace, "--id", "key_nope"],
        stderr: "No such API key",
        code: "resource_missing",
      },
      {
        name: "an unknown workspace",
        args: () => ["key", "create", "--workspace", "no-such-ws", "--mode", "test"],
        stderr: "No workspace with identifier no-such-ws",
        code: "workspace_not_found",
      },
      {
        name: "an invalid e-mail",
        args: () => ["user", "create", "--workspace", workspace, "--email", "not-an-email", "--password", "s3cret-pass", "--role", "admin"],
        stderr: "invalid --email",
        code: "invalid_input", // a value the command's own schema refuses (server/cli/svc.ts)
      },
    ])("$name fails with exit status 1", async ({ args, stderr, code }) => {
      const run = await svc(env, ...args(), "--json");
      expect(jsonFailure(run, 1).code).toBe(code);
      expect(run.stderr).toContain(stderr);
      // Without --json: nothing on stdout.
      expect((await svc(env, ...args())).stdout).toBe("");
    });

    it("demo creates the demo workspace once; a second run shows no keys but a new password that signs in", async () => {
      const first = await svcJson(env, "demo");
      expect(Object.keys(first).sort()).toEqual(["created", "email", "live_key", "password", "test_key", "workspace"]);
      expect(first).toMatchObject({ created: true, email: "admin@demo.local" });
      expect(first.workspace).toMatch(/^demo-[a-z0-9]{6}$/);
      expect(first.password).toMatch(/\S{8,}/);
      expect(first.test_key).toMatch(/^svc_test_[0-9A-Za-z]{32,}$/);
      expect(first.live_key).toMatch(/^svc_live_[0-9A-Za-z]{32,}$/);

      const second = await svcJson(env, "demo");
      expect(second).toEqual({
        workspace: first.workspace,
        email: "admin@demo.local",
        password: expect.stringMatching(/^demo-[0-9A-Za-z]{12}$/),
        test_key: null,
        live_key: null,
        created: false,
      });
      expect(second.password).not.toBe(first.password);
      // The stored hash is the new password's; the first one no longer signs in.
      const [user] = await query(`SELECT password_hash FROM users WHERE email = 'admin@demo.local'`);
      expect(await verifyPassword(String(second.password), String(user!.password_hash))).toBe(true);
      expect(await verifyPassword(String(first.password), String(user!.password_hash))).toBe(false);
    });
  });
}
