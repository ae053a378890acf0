import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { SearchResult } from "../../server/search/search.ts";
import { api, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";

// The dashboard's one search box (server/search/search.ts, docs/dashboard.md "Search") through
// the real server and database on both engines: what support has in hand finds the message,
// only in the workspace asked, and every statement is answered from an index.

const fx = fixtures();
const main = fx.main!;
const other = fx.other!;
const search = (workspace: string, q: string) => dashboardQuery<SearchResult>(workspace, "search.find", { q });

let n = 0;
function phone(): string {
  return `+55119${String(30_000_000 + ((Date.now() + n++ * 7919 + Math.floor(Math.random() * 1e6)) % 69_999_999)).slice(-8)}`;
}

describe("search.find", () => {
  it("finds a message by its id, the contact's name from its start, a metadata value, a phone in any format and an e-mail; not another workspace's", async () => {
    const tag = randomUUID().slice(0, 8);
    const name = `Zélia${tag} Lima`;
    const to = phone();
    const order = `ord_${tag}`;
    const sent = await api(main.keys.test).post("/messages", {
      channel: "whatsapp",
      to: { phone: to, name },
      whatsapp: { body: "Hi" },
      metadata: { order_id: order },
    });
    expect(sent.status, sent.text).toBe(202);
    const email = `s.${tag}@Example.com`;
    const mail = await api(main.keys.test).post("/messages", {
      channel: "email",
      to: { email, name: `Other ${tag}` },
      email: { subject: "Hello", html: "<p>Hi</p>" },
    });
    expect(mail.status, mail.text).toBe(202);

    const byId = await search(main.id, sent.body.id);
    expect(byId.hits[0]).toMatchObject({ kind: "message", id: sent.body.id, title: name, parent_id: sent.body.contact_id });

    const byName = await search(main.id, `zélia${tag}`);
    expect(byName.hits.map((h) => [h.kind, h.id])).toEqual([
      ["message", sent.body.id],
      ["contact", sent.body.contact_id],
    ]);
    // From its start only: the middle of a name is not an index's.
    expect((await search(main.id, `lia${tag}`)).hits).toEqual([]);

    const byMetadata = await search(main.id, order);
    expect(byMetadata.hits).toEqual([expect.objectContaining({ kind: "message", id: sent.body.id })]);

    const national = `(${to.slice(3, 5)}) ${to.slice(5, 10)}-${to.slice(10)}`;
    const byPhone = await search(main.id, national);
    expect(byPhone.hits.map((h) => h.id).sort()).toEqual([sent.body.id, sent.body.contact_id].sort());

    const byEmail = await search(main.id, email.toUpperCase());
    expect(byEmail.hits.map((h) => h.kind).sort()).toEqual(["contact", "message"]);

    // Another workspace sees none of it.
    for (const q of [sent.body.id, `zélia${tag}`, order, to]) expect((await search(other.id, q)).hits).toEqual([]);
  });

  it("finds a flow by its id and by the start of its name, and a run by its id", async () => {
    const tag = randomUUID().slice(0, 8);
    const { flow_id } = await dashboardMutation<{ flow_id: string }>(main.id, "flows.create", {
      definition: { name: `Renewal${tag} reminder`, status: "active", steps: [{ type: "exit" }] },
    });
    expect((await search(main.id, flow_id)).hits[0]).toMatchObject({ kind: "flow", id: flow_id, title: `Renewal${tag} reminder` });
    expect((await search(main.id, `renewal${tag}`)).hits).toEqual([expect.objectContaining({ kind: "flow", id: flow_id })]);
    const enrolled = await api(main.keys.test).post(`/flows/${flow_id}/enroll`, { to: { phone: phone() } });
    expect(enrolled.status, enrolled.text).toBeLessThan(300);
    const runId = String(enrolled.body.id);
    expect((await search(main.id, runId)).hits[0]).toMatchObject({ kind: "run", id: runId, parent_id: flow_id });
    expect((await search(other.id, flow_id)).hits).toEqual([]);
  });

  it("refuses a query longer than 200 characters with the param named", async () => {
    await expect(search(main.id, "x".repeat(201))).rejects.toThrow(/400/);
  });
});
