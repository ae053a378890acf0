import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import { freshDatabase, seedFixtures } from "../support/database.ts";
import { postWebhook, startFakeWhatsApp, statusWebhook, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { svcJson } from "../support/svc.ts";
import { HELLO, HELLO_TEMPLATE } from "../support/whatsapp-window.ts";
import { poll } from "../support/until.ts";

// D47 on each engine: a Cloud API that reads a message and never answers is called once. The
// message stays `queued` with `provider_timeout`; WhatsApp's report, found by the
// `biz_opaque_callback_data` the send carried, settles it; without one it fails as
// `provider_timeout` once PROVIDER_SETTLE_SECONDS have passed. (e2e/api/starved-cpu.test.ts
// does the same for 400 messages on three instances beside CPU-bound processes.)

const engine = inject("api").engine;
const SETTLE_SECONDS = 20;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let fx: Fixtures;
let silent: FakeWhatsApp;
let server: RunningServer;

beforeAll(async () => {
  database = await freshDatabase(engine, `timeout_${engine}`, { migrated: true });
  fx = seedFixtures(database.env);
  silent = await startFakeWhatsApp();
  silent.templates.set("5550094", [HELLO_TEMPLATE]);
  // prettier-ignore
  await svcJson({ ...database.env, ALLOW_PRIVATE_WEBHOOKS: "1" },
    "channel", "connect", "--workspace", fx.delivery!.id, "--type", "whatsapp", "--phone-number-id", "5550093", "--waba-id", "5550094",
    "--access-token", "t", "--app-secret", "s", "--verify-token", "v", "--api-base-url", silent.url);
  silent.setMode({ kind: "hang" }); // only now: connecting lists the channel's templates on it
  server = await startServer({
    ...database.env,
    ALLOW_PRIVATE_WEBHOOKS: "1",
    PIPELINE: "inline",
    PROVIDER_SETTLE_SECONDS: String(SETTLE_SECONDS),
  });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await silent?.close();
  await database?.drop();
});

/** The message once `done` holds for it. */
async function until(id: string, done: (m: Record<string, any>) => boolean, timeoutMs: number): Promise<Record<string, any>> {
  const client = api(fx.delivery!.keys.live!, server.url);
  return poll(async () => (await client.get(`/messages/${id}`)).body as Record<string, any>, done, timeoutMs, 500);
}

describe("a Cloud API that never answers (D47)", () => {
  it(
    "is called once; the message waits for WhatsApp's report, which settles it, or fails as provider_timeout",
    { timeout: 300_000 },
    async () => {
      const client = api(fx.delivery!.keys.live!, server.url);
      const send = async (phone: string) => {
        const res = await client.post("/messages", { channel: "whatsapp", to: { phone }, whatsapp: HELLO });
        expect(res.status).toBe(202);
        return res.body.id as string;
      };
      const [reported, unreported] = [await send("+5511977300001"), await send("+5511977300002")];

      // No answer within 15 s: still queued, saying why, and not called again.
      for (const id of [reported, unreported]) {
        const m = await until(id, (x) => x.error_code !== null, 120_000);
        expect(m).toMatchObject({ status: "queued", error_code: "provider_timeout", provider_message_id: null });
        expect(m.error).toMatch(/did not answer within 15 s/);
      }

      // WhatsApp took the first and reports on it: the report carries our id, not a known wamid.
      const wamid = `wamid.${randomBytes(18).toString("base64url")}`;
      const report = statusWebhook("5550093", [{ wamid, status: "delivered", bizOpaqueCallbackData: reported }]);
      expect((await postWebhook(`${server.url}/api/providers/whatsapp`, report, "s")).status).toBe(200);
      expect((await client.get(`/messages/${reported}`)).body).toMatchObject({
        status: "delivered",
        provider_message_id: wamid,
        error: null,
        error_code: null,
      });

      // The other hears nothing: it fails once the settle time is over, and keeps failing.
      const failed = await until(unreported, (x) => x.status !== "queued", (SETTLE_SECONDS + 60) * 1000);
      expect(failed).toMatchObject({ status: "failed", error_code: "provider_timeout" });
      expect(failed.error).toMatch(/may still have reached the recipient/);
      expect((await client.get(`/messages/${reported}`)).body.status).toBe("delivered");

      const calls = silent.requests.filter((r) => r.method === "POST").map((r) => r.body.biz_opaque_callback_data);
      expect(calls.sort()).toEqual([reported, unreported].sort());
    },
  );
});
