import { request } from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, expectError } from "../support/client.ts";
import { freshDatabase } from "../support/database.ts";
import { START_BUDGET_MS, startServer, type RunningServer } from "../support/server.ts";

// A server of its own: first start (migrations, demo workspace, keys printed), unexpected
// exceptions (500 api_error without leaks) and graceful shutdown on SIGTERM.
const engine = inject("api").engine;
let server: RunningServer;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let testKey: string;

beforeAll(async () => {
  database = await freshDatabase(engine, `life_${engine}`);
  server = await startServer({ ...database.env, LOG_LEVEL: "info" });
  testKey = /Test key: (svc_test_\w+)/.exec(server.output())![1]!;
});

afterAll(async () => {
  await server.stop();
  await database.drop();
});

describe("first start", () => {
  it("creates the demo workspace and prints its sign-in and keys", async () => {
    const out = server.output();
    expect(out).toMatch(/Demo workspace demo-\w+ created\. Sign in as admin@demo\.local \/ \S+/);
    expect(out).toMatch(/Live key: svc_live_\w{40}/);
    const res = await api(testKey, server.url).get("/");
    expect(res.body).toMatchObject({ ok: true, mode: "test", workspace: expect.stringMatching(/^demo-/) });
  });
});

describe("structured logs", () => {
  it("writes one JSON line per request with its Request-Id", async () => {
    const res = await api(testKey, server.url).get("/tags");
    const id = res.headers.get("request-id")!;
    await new Promise((r) => setTimeout(r, 100));
    const line = server
      .output()
      .split("\n")
      .find((l) => l.includes(`"requestId":"${id}"`));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 30, msg: "request", method: "GET", url: "/api/v1/tags", status: 200, requestId: id });
  });
});

describe.runIf(engine === "postgres")("unexpected exceptions", () => {
  it("answer 500 api_error with the request id and no internals", async () => {
    const admin = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await admin.connect();
    await admin.query("ALTER TABLE tags RENAME TO tags_gone");
    try {
      const res = await api(testKey, server.url).post("/tags", { name: "boom" });
      const error = expectError(res, { status: 500, type: "api_error", code: "internal_error", param: null });
      expect(error.message).toContain(res.headers.get("request-id")!);
      expect(res.text).not.toMatch(/tags_gone|prisma|relation|Error:/i);
    } finally {
      await admin.query("ALTER TABLE tags_gone RENAME TO tags");
      await admin.end();
    }
    expect((await api(testKey, server.url).post("/tags", { name: "after the fault" })).status).toBe(201);
  });
});

describe("graceful shutdown", () => {
  it(
    "on SIGTERM finishes the request in flight, refuses new connections and exits 0",
    async () => {
      const port = Number(new URL(server.url).port);
      const body = JSON.stringify({ name: "in flight" });
      const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path: "/api/v1/tags",
            method: "POST",
            headers: { Authorization: `Bearer ${testKey}`, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
          },
          (res) => {
            let text = "";
            res.on("data", (d: Buffer) => (text += d.toString()));
            res.on("end", () => resolve({ status: res.statusCode!, body: text }));
          },
        );
        req.on("error", reject);
        req.write(body.slice(0, 5));
        // The request has started (headers and part of the body are in); now stop the server.
        setTimeout(() => {
          server.process.kill("SIGTERM");
          setTimeout(() => req.end(body.slice(5)), 300);
        }, 200);
      });
      const done = await inFlight;
      expect(done.status).toBe(201);
      expect(JSON.parse(done.body).name).toBe("in flight");
      const code = await server.stop();
      expect(code).toBe(0);
      await expect(fetch(`${server.url}/api/v1`)).rejects.toThrow();
      // Restart on the same data: nothing to migrate (no migrator is started), the demo is not created twice.
      server = await startServer(database.env);
      expect(server.output()).not.toContain("applying database migrations");
      expect(server.output()).not.toContain("created. Sign in");
      expect((await api(testKey, server.url).get("/")).status).toBe(200);
    },
    START_BUDGET_MS + 30_000,
  );
});
