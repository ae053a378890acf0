import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../support/client.ts";
import { freshDatabase, queryDatabase, seedFixtures } from "../support/database.ts";
import { startFakeWhatsApp, type FakeWhatsApp } from "../support/fake-whatsapp.ts";
import type { Fixtures } from "../support/fixtures.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { svcJson } from "../support/svc.ts";
import { poll } from "../support/until.ts";
import { HELLO, HELLO_TEMPLATE } from "../support/whatsapp-window.ts";

// Issue 36: the job of a live send is written already held by the pipeline that will run it,
// and starts as the request commits, with no claim after a wake-up. On PostgreSQL the server
// runs its pipeline in worker threads (PIPELINE_WORKERS): it hands the job to one of them,
// under a token of its own that names that worker. A pipeline hands jobs over while it has room
// (fewer than half of its slots busy) and leaves the rest to its claims: so this runs on a server
// of its own, whose pipeline nothing else fills (the shared server of the other files may be
// sending another file's 1,000-message batch).

const engine = inject("api").engine;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let fx: Fixtures;
let fake: FakeWhatsApp;
let server: RunningServer;

beforeAll(async () => {
  database = await freshDatabase(engine, `handoff_${engine}`, { migrated: true });
  fx = seedFixtures(database.env);
  fake = await startFakeWhatsApp({ latencyMs: 20 });
  fake.templates.set("5550194", [HELLO_TEMPLATE]);
  // prettier-ignore
  await svcJson({ ...database.env, ALLOW_PRIVATE_WEBHOOKS: "1" },
    "channel", "connect", "--workspace", fx.delivery!.id, "--type", "whatsapp", "--phone-number-id", "5550193", "--waba-id", "5550194",
    "--access-token", "token-1", "--app-secret", "s", "--verify-token", "v", "--api-base-url", fake.url);
  server = await startServer({ ...database.env, ALLOW_PRIVATE_WEBHOOKS: "1", PIPELINE: "inline" });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await database?.drop();
});

describe("a live send's job", () => {
  it("is written leased to the pipeline and starts at once; the provider is called once", async () => {
    const live = api(fx.delivery!.keys.live!, server.url);
    fake.setLatency(1_500); // the job stays in the outbox while its call is in flight
    const res = await live.post("/messages", { channel: "whatsapp", to: { phone: "+5511977310001" }, whatsapp: HELLO });
    expect(res.status).toBe(202);
    const [job] = await queryDatabase(
      database.env,
      `SELECT lease_owner, attempts FROM jobs WHERE subject_id = $1 AND kind = 'message.dispatch'`,
      [res.body.id],
    );
    expect(job).toMatchObject({ lease_owner: expect.any(String), attempts: 1 });
    if (engine === "postgres") expect(job!.lease_owner).toMatch(/:handoff#\d+$/);
    const sent = await poll(
      async () => (await live.get(`/messages/${res.body.id}`)).body as Record<string, any>,
      (m) => m.status === "sent",
      30_000,
    );
    expect(sent.status).toBe("sent");
    expect(fake.requests.filter((r) => r.body?.biz_opaque_callback_data === res.body.id)).toHaveLength(1);
  });
});
