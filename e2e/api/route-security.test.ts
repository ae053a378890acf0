import { describe, expect, inject, it } from "vitest";
import { appRouter } from "../../server/api/root.ts";
import type { Meta } from "../../server/api/trpc.ts";
import { api, expectError, fixtures, type ApiResponse } from "../support/client.ts";
import { dashboardMutation } from "../support/dashboard.ts";
import { FIXTURE_ADMIN, FIXTURE_OUTSIDER, FIXTURE_SUPPORT } from "../support/fixtures.ts";

// One security suite for every route (unkey's runCommonRouteTests is the model), generated:
// the public operations from the OpenAPI document the server serves, the dashboard's
// procedures from the tRPC router. A new route is covered without anyone listing it here; a
// new kind of path parameter fails until it has a maker below.

const { baseUrl } = inject("api");
const fx = fixtures();
const main = fx.main!;
const other = fx.other!;

type Operation = {
  method: string;
  path: string;
  scope?: string;
  params: { name: string; in: string }[];
  example?: Record<string, unknown>;
};

const doc = (await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json()) as {
  paths: Record<
    string,
    Record<
      string,
      {
        "x-required-scope"?: string;
        parameters?: { name?: string; in?: string }[];
        requestBody?: { content: Record<string, { example?: Record<string, unknown> }> };
      }
    >
  >;
};
const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({
    method: method.toUpperCase(),
    path,
    scope: op["x-required-scope"],
    params: (op.parameters ?? []).filter((p): p is { name: string; in: string } => !!p.name && (p.in === "path" || p.in === "query")),
    example: op.requestBody?.content["application/json"]?.example,
  })),
);
const label = (op: Operation) => `${op.method} ${op.path}`;

/** Makers of a resource of `other` for each collection a path parameter names. */
const makers: Record<string, () => Promise<string>> = {
  contacts: async () => (await api(other.keys.test).post("/contacts", { phone: "+15550107001", name: "Other's contact" })).body.id,
  messages: async () =>
    (await api(other.keys.test).post("/messages", { channel: "whatsapp", to: { phone: "+15550107002" }, whatsapp: { body: "Other's" } }))
      .body.id,
  flows: async () =>
    (
      await dashboardMutation<{ id: string }>(other.id, "flows.create", {
        definition: { name: `Other's flow ${Date.now()}`, status: "active", steps: [{ type: "exit" }] },
      })
    ).id,
  "webhook-endpoints": async () =>
    (await dashboardMutation<{ id: string }>(other.id, "webhooks.create", { url: "http://127.0.0.1:9/others" })).id,
  "webhook-deliveries": async () => {
    const endpoint = await othersId("webhook-endpoints");
    return (await dashboardMutation<{ delivery_id: string }>(other.id, "webhooks.sendTestEvent", { endpoint_id: endpoint })).delivery_id;
  },
  runs: async () => {
    const { flow_id } = await dashboardMutation<{ flow_id: string }>(other.id, "flows.create", {
      definition: { name: `Other's journey ${Date.now()}`, status: "active", steps: [{ type: "wait", duration: "PT1H" }] },
    });
    return (await api(other.keys.test).post(`/flows/${flow_id}/enroll`, { to: { phone: "+15550107003" } })).body.id;
  },
  suppressions: async () => (await api(other.keys.test).post("/suppressions", { email: "others.suppressed@example.com" })).body.email,
  tags: async () => (await api(other.keys.test).post("/tags", { name: `Other's tag ${Date.now()}` })).body.id,
  // An e-mail channel (D92's dns-check); nothing is sent through it.
  channels: async () =>
    (
      await dashboardMutation<{ channel_id: string }>(other.id, "channels.connect", {
        type: "email",
        smtp_url: "smtp://127.0.0.1:9",
        from: "others@other.example",
      })
    ).channel_id,
  "custom-fields": async () =>
    (await api(other.keys.test).post("/custom-fields", { key: `others_${Date.now()}`, name: "Other's field", type: "text" })).body.id,
};
const othersIds = new Map<string, Promise<string>>();
function othersId(collection: string): Promise<string> {
  const maker = makers[collection];
  if (!maker) throw new Error(`no maker of another workspace's ${collection}: add one to route-security.test.ts`);
  if (!othersIds.has(collection)) othersIds.set(collection, maker());
  return othersIds.get(collection)!;
}

/** The path with each parameter filled: another workspace's resource, or `value` when given. */
async function fill(op: Operation, value?: string): Promise<string> {
  let path = op.path;
  for (const m of op.path.matchAll(/\/([^/{]+)\/\{(\w+)\}/g)) {
    path = path.replace(`{${m[2]}}`, value ?? (await othersId(m[1]!)));
  }
  return path;
}

/**
 * The operation's example body, its recipient reduced to one address: the document's examples
 * of enroll and unenroll give `phone`, `email` and `contact_id` at once, which D5 refuses
 * before the flow is looked up.
 */
function sendable(example: Record<string, unknown> | undefined): Record<string, unknown> {
  const to = example?.to as Record<string, unknown> | undefined;
  if (!to || Object.keys(to).filter((k) => k !== "name").length <= 1) return example ?? {};
  return { ...example, to: { phone: to.phone } };
}

const call = (key: string | undefined, op: Operation, path: string, headers?: Record<string, string>) =>
  op.path === STREAM
    ? openStream(key, path, headers)
    : api(key).request(op.method, path, op.method === "GET" || op.method === "DELETE" ? undefined : sendable(op.example), { headers });

/** The event stream (D77) stays open when it is granted: its status and headers, then it is closed. */
const STREAM = "/webhook-events/stream";
async function openStream(key: string | undefined, path: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers },
    signal: abort.signal,
  });
  if (res.headers.get("content-type")?.startsWith("text/event-stream")) {
    abort.abort();
    return { status: res.status, headers: res.headers, body: undefined, text: "" };
  }
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
}

/** The first string of `value` (depth first) and its dotted path. */
function firstString(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === "string") return path;
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const found = firstString(v, [...path, k]);
      if (found) return found;
    }
  }
  return null;
}
function withText(value: unknown, path: string[], text: string): unknown {
  if (path.length === 0) return text;
  const [head, ...rest] = path;
  return { ...(value as Record<string, unknown>), [head!]: withText((value as Record<string, unknown>)[head!], rest, text) };
}

describe.each(operations.map((op) => [label(op), op] as const))("%s", (_name, op) => {
  it("without a key: 401 missing_api_key", async () => {
    expectError(await call(undefined, op, await fill(op, "x_1")), { status: 401, type: "authentication", code: "missing_api_key" });
  });

  it("with a malformed key: 401 invalid_api_key", async () => {
    expectError(await call("svc_test_tooShort", op, await fill(op, "x_1")), {
      status: 401,
      type: "authentication",
      code: "invalid_api_key",
    });
  });

  it("with a revoked key: 401 invalid_api_key", async () => {
    expectError(await call(main.keys.revoked, op, await fill(op, "x_1")), { status: 401, type: "authentication", code: "invalid_api_key" });
  });

  it("with a live key from a browser (Origin): 403 live_key_in_browser; a test key is not refused for it", async () => {
    const path = await fill(op, "x_1");
    expectError(await call(main.keys.live, op, path, { Origin: "https://shop.example" }), {
      status: 403,
      type: "forbidden",
      code: "live_key_in_browser",
    });
    const fromBrowser = await call(main.keys.test, op, path, { Origin: "https://shop.example" });
    expect(fromBrowser.body?.error?.code, fromBrowser.text).not.toBe("live_key_in_browser");
    expect(fromBrowser.status).not.toBe(401);
  });

  it.runIf(op.scope)("with a key lacking its scope: 403 missing_scope naming the scope", async () => {
    const key = op.scope === "messages:read" ? main.keys.fieldsOnly : main.keys.readOnly;
    const error = expectError(await call(key, op, await fill(op, "x_1")), { status: 403, type: "forbidden", code: "missing_scope" });
    expect(error.message).toContain(op.scope!);
  });

  it.runIf(op.params.some((p) => p.in === "path"))("with another workspace's id: 404 not_found", async () => {
    const res = await call(main.keys.test, op, await fill(op));
    expectError(res, { status: 404, type: "not_found", code: "resource_missing" });
  });

  // D26; a batch takes up to 5 MiB (D86).
  const maxBody = op.path === "/messages/batch" ? 5 * 1024 * 1024 : 256 * 1024;
  it.runIf(op.method === "POST")(`with a body over ${maxBody / 1024} KiB: 400 body_too_large`, async () => {
    const rawBody = JSON.stringify({ padding: "x".repeat(maxBody) });
    const res = await api(main.keys.test).request("POST", await fill(op, "x_1"), undefined, {
      rawBody,
      headers: { "Content-Type": "application/json" },
    });
    expectError(res, { status: 400, type: "invalid_request", code: "body_too_large" });
  });

  const textTarget = op.example ? firstString(op.example) : null;
  const queryParam = op.params.find((p) => p.in === "query");
  const pathParam = op.params.find((p) => p.in === "path");
  it.runIf(textTarget ?? queryParam)("with a NUL character in its input: 400 invalid_text naming the parameter", async () => {
    const key = main.keys.test;
    let res;
    let param: string;
    if (op.method !== "GET" && textTarget) {
      param = textTarget.join(".");
      res = await api(key).request(op.method, await fill(op, "x_1"), withText(op.example, textTarget, "a\u0000b"));
    } else {
      param = queryParam!.name;
      res = await api(key).get(`${await fill(op, "x_1")}?${queryParam!.name}=a%00b`);
    }
    expectError(res, { status: 400, type: "invalid_request", code: "invalid_text", param });
  });

  it.runIf(pathParam)("with a NUL character in a path parameter: 404, never a server error", async () => {
    // Path parameters reach the procedure percent-encoded: an id that names nothing.
    expectError(await call(main.keys.test, op, await fill(op, "a%00b")), { status: 404, type: "not_found" });
  });
});

// The dashboard's procedures: every one answers over /api/trpc with the session cookie.

type Procedure = { path: string; type: "query" | "mutation"; meta: Meta | undefined };
const procedures: Procedure[] = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: string; meta?: Meta } }>,
).map(([path, p]) => ({ path, type: p._def.type as Procedure["type"], meta: p._def.meta }));
/** Procedures about the signed-in user rather than a workspace: no workspace to be refused. */
const USER_LEVEL = new Set(["workspaces.mine"]);
const adminOnly = (p: Procedure) => !(p.meta?.roles ?? (p.type === "mutation" ? ["admin"] : ["admin", "support"])).includes("support");

const sessions = new Map<string, Promise<string>>();
function session(user: { email: string; password: string }): Promise<string> {
  if (!sessions.has(user.email)) {
    sessions.set(
      user.email,
      (async () => {
        const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
        const { csrfToken } = (await csrf.json()) as { csrfToken: string };
        const cookies = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
        const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
          method: "POST",
          redirect: "manual",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookies.join("; ") },
          body: new URLSearchParams({ csrfToken, ...user, json: "true" }),
        });
        const cookie = res.headers.getSetCookie().find((c) => c.includes("session-token="));
        if (!cookie) throw new Error(`sign-in of ${user.email} failed: ${res.status}`);
        return cookie.split(";")[0]!;
      })(),
    );
  }
  return sessions.get(user.email)!;
}

async function trpc(p: Procedure, opts: { cookie?: string; workspace?: string; body?: string } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (opts.cookie) headers.Cookie = opts.cookie;
  if (opts.workspace) headers["x-svc-workspace"] = opts.workspace;
  const res =
    p.type === "query" && opts.body === undefined
      ? await fetch(`${baseUrl}/api/trpc/${p.path}?input=${encodeURIComponent("{}")}`, { headers })
      : await fetch(`${baseUrl}/api/trpc/${p.path}`, { method: "POST", headers, body: opts.body ?? "{}" });
  const text = await res.text();
  return { status: res.status, text, error: (JSON.parse(text) as { error?: { message: string; data?: { code?: string } } }).error };
}

describe.each(procedures.map((p) => [p.path, p] as const))("dashboard %s", (_name, p) => {
  it("without a session: 401", async () => {
    const res = await trpc(p, { workspace: main.id });
    expect(res.status, res.text).toBe(401);
  });

  it("with an API key instead of a session: 401 (keys only open the public API)", async () => {
    const res = await fetch(`${baseUrl}/api/trpc/${p.path}${p.type === "query" ? "?input=%7B%7D" : ""}`, {
      method: p.type === "query" ? "GET" : "POST",
      headers: { Authorization: `Bearer ${main.keys.test}`, "Content-Type": "application/json", "x-svc-workspace": main.id },
      body: p.type === "query" ? undefined : "{}",
    });
    expect(res.status).toBe(401);
  });

  it.runIf(!USER_LEVEL.has(p.path))("by a user of another workspace: 403", async () => {
    const res = await trpc(p, { cookie: await session(FIXTURE_OUTSIDER), workspace: main.id });
    expect(res.status, res.text).toBe(403);
  });

  it.runIf(adminOnly(p))("by a support user (admin only): 403 role_required", async () => {
    const res = await trpc(p, { cookie: await session(FIXTURE_SUPPORT), workspace: main.id });
    expect(res.status, res.text).toBe(403);
    expect(res.error?.data?.code).toBe("role_required");
  });

  it("with a body over 1 MiB: 413", async () => {
    const res = await trpc(p, {
      cookie: await session(FIXTURE_ADMIN),
      workspace: main.id,
      body: JSON.stringify({ pad: "x".repeat(1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text).error.code).toBe("request_too_large");
  });
});
