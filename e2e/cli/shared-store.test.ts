import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server.ts";
import { svc, svcJson } from "../support/svc.ts";

// D53: with the embedded store, the server serves it to local processes on a socket in
// DATA_DIR; `npx svc` and a second server reach it there while the first server runs, and
// what they write is live at once. D53 too: a process with another secret refuses to start.

let dataDir: string;
let server: RunningServer;
let env: Record<string, string>;

// Migrating a fresh store and starting a server take minutes on a loaded 2-core machine.
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "svc-shared-"));
  env = { DATA_DIR: dataDir, ALLOW_PRIVATE_WEBHOOKS: "1" };
  // No server yet: the CLI opens the store itself (and migrates it), then leaves it.
  expect(await svcJson(env, "tick")).toHaveProperty("claimed");
  server = await startServer(
    { DATA_DIR: dataDir, DATABASE_URL: undefined, PIPELINE: "inline", ALLOW_PRIVATE_WEBHOOKS: "1" },
    { timeoutMs: 240_000 },
  );
}, 600_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function root(key: string, base = server.url): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/api/v1/`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("the CLI beside a running server on the embedded store (D53)", () => {
  it("serves the store on a socket in DATA_DIR", () => {
    expect(existsSync(join(dataDir, ".s.PGSQL.5432"))).toBe(true);
  });

  it("creates a workspace, a key, a user, channels and a webhook, and ticks, while the server runs", { timeout: 900_000 }, async () => {
    const { workspace } = await svcJson(env, "workspace", "create", "--name", "Shared", "--plan", "pro", "--default-country", "BR");
    expect(workspace).toMatch(/^shared-/);
    const ws = String(workspace);

    const key = await svcJson(env, "key", "create", "--workspace", ws, "--mode", "test");
    const created = await root(String(key.key));
    expect(created.status).toBe(200);
    expect(created.body.workspace).toBe(ws);

    expect(
      await svcJson(
        env,
        "user",
        "create",
        "--workspace",
        ws,
        "--email",
        "ops@shared.test",
        "--password",
        "a-long-password",
        "--role",
        "admin",
      ),
    ).toHaveProperty("id");
    const reset = await svcJson(env, "user", "reset-password", "--workspace", ws, "--email", "ops@shared.test");
    expect(reset).toEqual({ id: expect.any(String), password: expect.stringMatching(/^[0-9A-Za-z]{16}$/) });
    expect(
      await svcJson(env, "user", "reset-password", "--workspace", ws, "--email", "ops@shared.test", "--password", "another-long-password"),
    ).toEqual({ id: reset.id });
    const whatsapp = await svcJson(
      env,
      ...["channel", "connect", "--workspace", ws, "--type", "whatsapp", "--phone-number-id", "5501"],
      ...[
        "--access-token",
        "token",
        "--app-secret",
        "app-secret",
        "--verify-token",
        "verify",
        "--api-base-url",
        "http://127.0.0.1:9/v21.0",
      ],
    );
    expect(whatsapp.channel_id).toEqual(expect.any(String));
    const email = await svcJson(
      env,
      ...["channel", "connect", "--workspace", ws, "--type", "email", "--smtp-url", "smtp://127.0.0.1:9", "--from", "news@shared.test"],
    );
    expect(email.channel_id).toEqual(expect.any(String));
    const hook = await svcJson(env, "webhook", "create", "--workspace", ws, "--url", "http://127.0.0.1:9/hook");
    expect(hook.secret).toMatch(/^whsec_/);
    expect(await svcJson(env, "tick")).toEqual(expect.any(Object));

    expect(await svcJson(env, "key", "revoke", "--workspace", ws, "--id", String(key.id))).toEqual({ revoked: true });
    expect((await root(String(key.key))).status).toBe(401);
  });

  it("a second server process shares the store through the first", { timeout: 900_000 }, async () => {
    const { workspace } = await svcJson(env, "workspace", "create", "--name", "Second", "--plan", "pro");
    const key = await svcJson(env, "key", "create", "--workspace", String(workspace), "--mode", "live");
    const second = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined, PIPELINE: "inline" }, { timeoutMs: 240_000 });
    try {
      expect(second.output()).toMatch(/embedded store/);
      expect((await root(String(key.key), second.url)).body.workspace).toBe(workspace);
      expect((await root(String(key.key))).body.workspace).toBe(workspace);
    } finally {
      expect(await second.stop()).toBe(0);
    }
    // The first server still serves the CLI after the second one left.
    expect(await svcJson(env, "key", "create", "--workspace", String(workspace), "--mode", "test")).toHaveProperty("key");
  });

  it("refuses a command and a server start with another secret, naming the fix", { timeout: 900_000 }, async () => {
    const run = await svc({ ...env, AUTH_SECRET: "another-secret-0123456789abcdef" }, "tick", "--json");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/set up with another secret .*AUTH_SECRET.*DATA_DIR/);

    const refused = await startServer(
      { DATA_DIR: dataDir, DATABASE_URL: undefined, AUTH_SECRET: "another-secret-0123456789abcdef" },
      { timeoutMs: 240_000 },
    ).then(
      () => "started",
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/exited with 1[\s\S]*svc cannot start: This database was set up with another secret/);
  });
});
