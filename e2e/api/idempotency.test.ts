import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, expectError, fixtures } from "../support/client.ts";

// D27, D28 through POST /tags (every POST endpoint opts into the same layer).
const ws = fixtures().idem!;
const client = api(ws.keys.test);
const unique = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

describe("idempotency (D27, D28)", () => {
  it("replays the stored status, body and headers for the same key and body", async () => {
    const key = randomUUID();
    const body = { name: unique("replay"), color: "#AABBCC" };
    const first = await client.post("/tags", body, { headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await client.post("/tags", { color: "#AABBCC", name: body.name }, { headers: { "Idempotency-Key": key } });
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    // Nothing was created twice: without the key the name now conflicts, and the list has one.
    expectError(await client.post("/tags", body), { status: 409, type: "conflict", param: "name" });
    const all = await client.get("/tags?limit=1000");
    expect(all.body.filter((t: { name: string }) => t.name === body.name)).toHaveLength(1);
  });

  it("answers 422 when the same key comes with a different body", async () => {
    const key = randomUUID();
    await client.post("/tags", { name: unique("first") }, { headers: { "Idempotency-Key": key } });
    const res = await client.post("/tags", { name: unique("second") }, { headers: { "Idempotency-Key": key } });
    expectError(res, { status: 422, type: "invalid_request", code: "idempotency_key_reused", param: "Idempotency-Key" });
  });

  it("stores 4xx answers too and replays them", async () => {
    const key = randomUUID();
    const bad = await client.post("/tags", { name: "" }, { headers: { "Idempotency-Key": key } });
    expectError(bad, { status: 400, type: "invalid_request", param: "name" });
    const again = await client.post("/tags", { name: "" }, { headers: { "Idempotency-Key": key } });
    expect(again.status).toBe(400);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(bad.body);
  });

  it("does not store 403 answers, so the client may retry", async () => {
    const key = randomUUID();
    const narrow = api(fixtures().main!.keys.readOnly);
    const denied = await narrow.post("/tags", { name: unique("denied") }, { headers: { "Idempotency-Key": key } });
    expectError(denied, { status: 403, type: "forbidden", code: "missing_scope" });
    const again = await narrow.post("/tags", { name: unique("denied") }, { headers: { "Idempotency-Key": key } });
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });

  it("scopes keys by mode: a live request with a test request's key is a new request", async () => {
    const key = randomUUID();
    const body = { name: unique("modes") };
    expect((await client.post("/tags", body, { headers: { "Idempotency-Key": key } })).status).toBe(201);
    const live = await api(ws.keys.live).post("/tags", body, { headers: { "Idempotency-Key": key } });
    // Not a replay: it ran, and tags are shared by both modes (D40), so the name conflicts.
    expectError(live, { status: 409, type: "conflict", code: "tag_name_taken", param: "name" });
    expect(live.headers.get("idempotent-replayed")).toBeNull();
  });

  it("is safe under concurrent requests with the same key: one runs, none twice", async () => {
    const key = randomUUID();
    const body = { name: unique("parallel") };
    const results = await Promise.all(
      Array.from({ length: 12 }, () => client.post("/tags", body, { headers: { "Idempotency-Key": key } })),
    );
    const fresh = results.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
    const replays = results.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === "true");
    const inProgress = results.filter((r) => r.status === 409);
    expect(fresh).toHaveLength(1);
    expect(replays.length + inProgress.length).toBe(11);
    for (const r of inProgress) expectError(r, { status: 409, type: "conflict", code: "idempotency_key_in_use", param: "Idempotency-Key" });
    for (const r of replays) expect(r.body).toEqual(fresh[0]!.body);
    const all = await client.get("/tags?limit=1000");
    expect(all.body.filter((t: { name: string }) => t.name === body.name)).toHaveLength(1);
  });

  // Issue 11: concurrent sends of a process share one statement (group commit); each still
  // stores its own response with its own message (D46), and nothing is mixed up between them.
  it("stores each response with its message when many sends with their own keys arrive at once", async () => {
    const sends = Array.from({ length: 40 }, (_, i) => ({
      key: randomUUID(),
      body: { channel: "whatsapp", to: { phone: `+5511977${String(700_000 + i)}` }, whatsapp: { body: `Batch ${i}` } },
    }));
    const first = await Promise.all(sends.map((s) => client.post("/messages", s.body, { headers: { "Idempotency-Key": s.key } })));
    expect(first.map((r) => r.status)).toEqual(sends.map(() => 202));
    expect(new Set(first.map((r) => r.body.id)).size).toBe(40);
    const again = await Promise.all(sends.map((s) => client.post("/messages", s.body, { headers: { "Idempotency-Key": s.key } })));
    again.forEach((r, i) => {
      expect(r.headers.get("idempotent-replayed")).toBe("true");
      expect(r.body).toEqual(first[i]!.body);
    });
    const stored = await Promise.all(first.map((r) => client.get(`/messages/${r.body.id}`)));
    stored.forEach((r, i) => expect(r.body).toMatchObject({ id: first[i]!.body.id, to: first[i]!.body.to, channel: "whatsapp" }));
  });

  it("under concurrent requests with one key and two bodies: one runs, the same body replays or waits, the other body is refused", async () => {
    const key = randomUUID();
    const bodies = [{ name: unique("first body") }, { name: unique("second body") }];
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => client.post("/tags", bodies[i % 2], { headers: { "Idempotency-Key": key } })),
    );
    const fresh = results.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
    expect(fresh).toHaveLength(1);
    const winner = bodies.findIndex((b) => b.name === fresh[0]!.body.name);
    results.forEach((r, i) => {
      if (r === fresh[0]) return;
      if (r.status === 409) expectError(r, { status: 409, type: "conflict", code: "idempotency_key_in_use", param: "Idempotency-Key" });
      else if (i % 2 === winner)
        expect(r.body).toEqual(fresh[0]!.body); // a replay of the winner
      else expectError(r, { status: 422, type: "invalid_request", code: "idempotency_key_reused", param: "Idempotency-Key" });
    });
  });

  it("refuses an Idempotency-Key longer than 255 characters", async () => {
    const res = await client.post("/tags", { name: unique("long") }, { headers: { "Idempotency-Key": "k".repeat(256) } });
    expectError(res, { status: 400, type: "invalid_request", code: "invalid_idempotency_key", param: "Idempotency-Key" });
  });
});
