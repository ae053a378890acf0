import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { request, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, fixtures } from "../support/client.ts";
import { queryDatabase } from "../support/database.ts";
import { ROOT } from "../support/server.ts";
import { until } from "../support/until.ts";
import { startReceiver, type Received, type Receiver } from "../support/webhook-receiver.ts";

// Issue 46: `svc listen` went silent for good after a burst. The stream read its events by
// `created_at` from 10 s before the newest one sent, 500 rows a read: after more than 500 events
// within 10 s each read returned the same 500 rows, and nothing was sent again. Over real HTTP on
// both engines: a 1,000-message batch (about 4,000 events) and a burst of single sends after it,
// every event forwarded once and verified with the `standardwebhooks` package, across a restart
// of `svc listen` in the middle (resumed by Last-Event-ID); a reader that stops reading is
// disconnected with its reason; `svc trigger` fires a sample event that `svc listen` forwards.
const { baseUrl, env } = inject("api");
const ws = fixtures().eventStream!;
const test = api(ws.keys.test);
const MESSAGE_EVENTS = ["mensagem.enviada", "mensagem.entregue", "mensagem.lida"];

const verify = (secret: string, hit: Received) =>
  new Webhook(secret).verify(hit.raw, {
    "webhook-id": hit.headers["webhook-id"] as string,
    "webhook-timestamp": hit.headers["webhook-timestamp"] as string,
    "webhook-signature": hit.headers["webhook-signature"] as string,
  }) as Record<string, any>;

/** `svc listen` (or `svc trigger`) run as a user runs it, its state under `config`; its output as it comes. */
function svc(args: string[], config: string) {
  const child = spawn(process.execPath, [join(ROOT, "bin", "svc.mjs"), ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      SVC_API_KEY: ws.keys.test,
      SVC_API_URL: baseUrl,
      XDG_CONFIG_HOME: config,
      DATABASE_URL: "",
      DATA_DIR: "",
    },
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    out: () => out,
    err: () => err,
    /** The JSON lines printed so far (`--json`). */
    lines: () =>
      out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, any>),
    exited,
    stop: async () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** A stream opened and never read: its socket's buffers fill and the server's writes back up. */
function stalledStream(key: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/api/v1/webhook-events/stream`, { headers: { Authorization: `Bearer ${key}` } }, (res) => {
      res.pause();
      resolve(res);
    });
    req.on("error", reject);
    req.end();
  });
}

/** How many more streams the key may open now (at most 5 are open per key). */
async function freeStreams(key: string): Promise<number> {
  const opened = await Promise.all(
    Array.from({ length: 5 }, async () => {
      const abort = new AbortController();
      const res = await fetch(`${baseUrl}/api/v1/webhook-events/stream`, {
        headers: { Authorization: `Bearer ${key}` },
        signal: abort.signal,
      });
      return { ok: res.status === 200, close: () => abort.abort() };
    }),
  );
  for (const o of opened) o.close();
  return opened.filter((o) => o.ok).length;
}

const phone = (n: number) => `+55119${String(n).padStart(8, "0")}`;

describe("the event stream and svc listen after a burst (issue 46, D77)", () => {
  let receiver: Receiver;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
    await receiver.close();
  });

  it("reads transactions in their order when their ids gain a digit (99 before 100): none skipped, none twice", async () => {
    // A store's transaction ids pass 999, 9999, … in the middle of bursts. The stream read them
    // ordered as text ("100" before "99"): a page skipped the events of every transaction between
    // and read some twice. Events of finished transactions 9, 10, 99, 100 and 101 (the ids are
    // far below the store's own, so all committed), read after the first one: each once, in order.
    const sql = (text: string, params: unknown[] = []) => queryDatabase(env, text, params);
    const [horizon] = await sql("SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin");
    expect(Number(horizon!.xmin)).toBeGreaterThan(200);
    const tag = Math.random().toString(36).slice(2, 8);
    // Ids that sort against the transactions' order, so that no order by id can pass for it.
    const events = [9, 10, 99, 100, 101, 102].map((txid, i) => ({ txid, id: `evt_order${tag}${9 - i}` }));
    const insert = (e: { txid: number; id: string }) =>
      sql(`INSERT INTO events (id, workspace_id, name, mode, data, txid) VALUES ($1, $2, 'contato.criado', 'test', $3, $4::text::xid8)`, [
        e.id,
        ws.id,
        JSON.stringify({ id: `ctt_order${tag}`, txid: e.txid }),
        String(e.txid),
      ]);
    for (const e of events.slice(0, 5)) await insert(e);

    const abort = new AbortController();
    const res = await fetch(`${baseUrl}/api/v1/webhook-events/stream`, {
      headers: { Authorization: `Bearer ${ws.keys.stream}`, "Last-Event-ID": events[0]!.id },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const ids: string[] = [];
    const sentinel = events[5]!;
    const reading = (async () => {
      const decoder = new TextDecoder();
      let text = "";
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        const blocks = text.split("\n\n");
        text = blocks.pop()!;
        for (const block of blocks) {
          const id = /^id: (\S+)$/m.exec(block)?.[1];
          if (id?.startsWith(`evt_order${tag}`)) ids.push(id);
          if (id === sentinel.id) return;
        }
      }
    })();
    // Once the first four arrived, one more: whatever the stream would send again comes before it.
    await until(
      () => ids.length,
      (n) => n >= 4,
      30_000,
    );
    await insert(sentinel);
    await reading;
    abort.abort();
    expect(ids).toEqual(events.slice(1).map((e) => e.id));
  });

  it("forwards every event of a 1,000-message batch and of a burst after it, across a restart, each once and verified", async () => {
    const config = mkdtempSync(join(tmpdir(), "svc-listen-"));
    const first = svc(["listen", "--json", "--forward-to", `${receiver.url}/burst`], config);
    children.push(first.child);
    const ready = await until(
      () => first.lines()[0],
      (l) => !!l?.secret,
      120_000,
    );
    expect(ready).toMatchObject({ secret: expect.stringMatching(/^whsec_\w{32}$/), workspace: ws.id, resumed_after: null });
    const secret = ready!.secret as string;
    // A reader that takes nothing: opened before the batch, it falls behind at once.
    const stalled = await stalledStream(ws.keys.stream!);
    expect(stalled.statusCode).toBe(200);

    // The first 400 messages carry the most metadata a message may (D57), which each of their
    // events repeats: some 12 MB, more than the stalled reader's socket buffers take in.
    const metadata = Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`key${k}`, "m".repeat(500)]));
    const base = 10_000_000 + Math.floor(Math.random() * 80_000_000);
    const batch = await test.post("/messages/batch", {
      messages: Array.from({ length: 1000 }, (_, i) => ({
        channel: "whatsapp",
        to: { phone: phone(base + i) },
        whatsapp: { body: `Burst ${i}` },
        ...(i < 400 ? { metadata } : {}),
      })),
    });
    expect(batch.status).toBe(200);
    const messageIds = (batch.body.data as { id: string }[]).map((m) => m.id);
    expect(messageIds).toHaveLength(1000);

    // A restart in the middle: stopped after a thousand events, started again, it resumes after
    // the last event it forwarded, with the same secret.
    await until(
      () => first.lines().filter((l) => l.event).length,
      (n) => n >= 1000,
      90_000,
    );
    expect(await first.stop()).toBe(0);
    const stoppedAfter = first.lines().at(-1)!;
    expect(stoppedAfter.forwarded).toBe(first.lines().filter((l) => l.event).length);
    const kept = JSON.parse(readFileSync(join(config, "svc", "listen.json"), "utf8")) as Record<string, any>;
    expect(Object.values(kept)).toEqual([{ secret, last_event_id: stoppedAfter.last_event_id }]);
    expect(JSON.stringify(kept)).not.toContain(ws.keys.test!); // a digest names the key, never the key itself

    const second = svc(["listen", "--json", "--forward-to", `${receiver.url}/burst`], config);
    children.push(second.child);
    const resumed = await until(
      () => second.lines()[0],
      (l) => !!l?.secret,
      120_000,
    );
    expect(resumed).toMatchObject({ secret, resumed_after: stoppedAfter.last_event_id });

    // A burst of single sends after the batch.
    const singles = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        test.post("/messages", { channel: "whatsapp", to: { phone: phone(base + 1000 + i) }, whatsapp: { body: `Single ${i}` } }),
      ),
    );
    expect(singles.map((s) => s.status)).toEqual(singles.map(() => 202));
    const all = [...messageIds, ...singles.map((s) => s.body.id as string)];

    // Every message's three events arrive; every contact's creation too.
    const wanted = new Set(all);
    const hits = await receiver.waitFor(
      (r) => r.path.endsWith("/burst") && MESSAGE_EVENTS.includes(r.body?.event) && wanted.has(r.body?.data?.id),
      3 * all.length,
      120_000,
    );
    const created = receiver.received.filter((r) => r.path.endsWith("/burst") && r.body?.event === "contato.criado");
    expect(created.length).toBe(all.length);
    const forwarded = receiver.received.filter((r) => r.path.endsWith("/burst"));
    expect(forwarded.length).toBeGreaterThanOrEqual(4 * all.length);
    for (const hit of forwarded) expect(verify(secret, hit).id).toBe(hit.headers["webhook-id"]);
    const ids = forwarded.map((h) => h.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(ids.length); // none twice, across the restart too
    const byMessage = new Map<string, string[]>();
    for (const h of hits) byMessage.set(h.body.data.id, [...(byMessage.get(h.body.data.id) ?? []), h.body.event]);
    for (const id of all) expect(byMessage.get(id)?.sort()).toEqual([...MESSAGE_EVENTS].sort());
    // Everything the receiver got is on svc listen's output, one JSON line each, with its status.
    await until(
      () => [...first.lines(), ...second.lines()].filter((l) => l.event).length,
      (n) => n === forwarded.length,
    );
    expect(
      second
        .lines()
        .filter((l) => l.event)
        .every((l) => l.status === 200 && /^evt_/.test(l.id)),
    ).toBe(true);
    expect(await second.stop()).toBe(0);

    // The reader that took nothing was disconnected with its reason: once its place among the
    // key's streams is free, what it left unread ends with the stream's last words.
    await until(
      () => freeStreams(ws.keys.stream!),
      (n) => n === 5,
      90_000,
    );
    stalled.resume();
    stalled.setEncoding("utf8");
    let text = "";
    for await (const chunk of stalled) text += chunk as string;
    const blocks = text.trim().split("\n\n");
    expect(blocks.at(-1)).toMatch(/^event: stream\.closed\ndata: /);
    expect(JSON.parse(blocks.at(-1)!.split("data: ")[1]!)).toMatchObject({
      reason: "slow_reader",
      message: expect.stringMatching(/read nothing/),
    });
    const got = blocks.filter((b) => b.startsWith("id: evt_")).map((b) => b.split("\n")[0]!.slice(4));
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(forwarded.length);
  }, 360_000);

  it("svc trigger fires a sample event that svc listen forwards, signed with its kept secret, or a new one on request", async () => {
    const config = mkdtempSync(join(tmpdir(), "svc-listen-"));
    const listen = svc(["listen", "--forward-to", `${receiver.url}/trigger`, "--events", "mensagem.entregue"], config);
    children.push(listen.child);
    const secret = (await until(
      () => /Webhook signing secret: (whsec_\w+)/.exec(listen.out())?.[1],
      (s) => !!s,
      120_000,
    ))!;
    expect(listen.out()).toContain(`(kept for this workspace and key in ${join(config, "svc", "listen.json")}`);

    const fired = svc(["trigger", "mensagem.entregue", "--json"], config);
    expect(await fired.exited).toBe(0);
    const { id, event } = JSON.parse(fired.out()) as { id: string; event: string };
    expect(event).toBe("mensagem.entregue");
    expect(id).toMatch(/^evt_/);
    const [hit] = await receiver.waitFor((r) => r.path.endsWith("/trigger") && r.headers["webhook-id"] === id, 1, 60_000);
    expect(verify(secret, hit!)).toMatchObject({ id, event: "mensagem.entregue", mode: "test", data: { status: "delivered" } });
    await until(listen.out, (o) => o.includes(`mensagem.entregue  ${id}  -> 200`));
    expect(await listen.stop()).toBe(0);

    // Text output says the same; a misspelt event is bad usage; a live key is refused.
    const text = svc(["trigger", "contato.criado"], config);
    expect(await text.exited).toBe(0);
    expect(text.out()).toMatch(/^Triggered contato\.criado: evt_\w+ \(svc listen forwards it\)\.\n$/);
    const misspelt = svc(["trigger", "mensagem.entrege"], config);
    expect(await misspelt.exited).toBe(2);
    expect(misspelt.err()).toMatch(/EVENT must be one of/);
    const live = svc(["trigger", "mensagem.entregue", "--api-key", ws.keys.live!, "--json"], config);
    expect(await live.exited).toBe(1);
    expect(JSON.parse(live.out())).toMatchObject({ error: { code: "failed", message: expect.stringMatching(/403.*test key/) } });

    // Started again: the same secret; --rotate-secret: a new one, kept from then on.
    const again = svc(["listen", "--json", "--forward-to", `${receiver.url}/trigger`], config);
    children.push(again.child);
    expect(
      (await until(
        () => again.lines()[0],
        (l) => !!l?.secret,
        120_000,
      ))!.secret,
    ).toBe(secret);
    expect(await again.stop()).toBe(0);
    const rotated = svc(["listen", "--json", "--rotate-secret", "--forward-to", `${receiver.url}/trigger`], config);
    children.push(rotated.child);
    const fresh = (await until(
      () => rotated.lines()[0],
      (l) => !!l?.secret,
      120_000,
    ))!.secret as string;
    expect(fresh).toMatch(/^whsec_\w{32}$/);
    expect(fresh).not.toBe(secret);
    const next = svc(["trigger", "contato.criado", "--json"], config);
    expect(await next.exited).toBe(0);
    const nextId = (JSON.parse(next.out()) as { id: string }).id;
    const [signed] = await receiver.waitFor((r) => r.path.endsWith("/trigger") && r.headers["webhook-id"] === nextId, 1, 60_000);
    expect(verify(fresh, signed!)).toMatchObject({ id: nextId, event: "contato.criado" });
    expect(() => verify(secret, signed!)).toThrow();
    expect(await rotated.stop()).toBe(0);
  }, 240_000);
});
