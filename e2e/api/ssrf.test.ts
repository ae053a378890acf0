import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixtures } from "../support/client.ts";
import { signIn } from "../support/dashboard.ts";
import { startServer, type RunningServer } from "../support/server.ts";

// Private addresses (D34; issue "Delivery guarantees", SSRF) over real HTTP: a server without
// ALLOW_PRIVATE_WEBHOOKS refuses to register a webhook endpoint on any spelling of a private
// address, the IPv4-translated form that passed the hand-written check included. The check
// does not depend on the engine; the second server shares the API tests' PostgreSQL database.
const { engine, env } = inject("api");
let server: RunningServer;
let cookie: string;

beforeAll(async () => {
  if (engine !== "postgres") return;
  server = await startServer({ ...env, PIPELINE: "off", ALLOW_PRIVATE_WEBHOOKS: "0" });
  cookie = await signIn(server.url);
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

async function mutation(path: string, input: unknown) {
  const res = await fetch(`${server.url}/api/trpc/${path}`, {
    method: "POST",
    headers: { Cookie: cookie, "x-svc-workspace": fixtures().webhooks!.id, "Content-Type": "application/json" },
    body: JSON.stringify(input),
  });
  return {
    status: res.status,
    body: (await res.json()) as { result?: { data: { id: string } }; error?: { data?: { code?: string; param?: string } } },
  };
}

const register = (url: string) => mutation("webhooks.create", { url });

describe.runIf(engine === "postgres")("webhook URLs on private addresses", () => {
  it.each([
    "https://[::ffff:0:127.0.0.1]/",
    "https://[::ffff:0:7f00:1]/hook",
    "https://[::ffff:127.0.0.1]/",
    "https://[::127.0.0.1]/",
    "https://[64:ff9b::a9fe:a9fe]/",
    "https://[64:ff9b:1::808:808]/",
    "https://[2002:7f00:1::]/",
    "https://[::]/",
    "https://2130706433/",
    "https://0x7f000001/",
    "https://0177.0.0.1/",
    "https://127.1/",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1/",
    "https://198.18.0.1/",
    "https://192.0.2.1/",
    "https://localhost/",
  ])("refuses %s with 400 private_address on url", async (url) => {
    const res = await register(url);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error?.data).toMatchObject({ code: "private_address", param: "url" });
  });

  it("accepts a public address (and removes it again)", async () => {
    const res = await register("https://93.184.215.14/hook");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await mutation("webhooks.delete", { endpoint_id: res.body.result!.data.id })).status).toBe(200);
  });
});
