import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fixtures } from "../../../e2e/support/client.ts";
import { Svc, SvcConflictError, SvcInvalidRequestError, type FlowVersion, type FlowWithDocument } from "../src/index.js";

// D98-D99 through the client, against the real server of the API tests (both engines):
// `.withResponse()` per call under concurrent calls, `client.request()`, the new endpoints, and
// the README's journeys-as-code example run as written.
const baseUrl = inject("api").baseUrl;
const ws = fixtures().client!;
const svc = new Svc({ apiKey: ws.keys.test!, baseUrl });
const code = fixtures().journeysCode!;
const run = promisify(execFile);
const CLIENT = fileURLToPath(new URL("..", import.meta.url));
let seq = 0;
const phone = () => `+55119${String(80_000_000 + (Date.now() % 1_000_000) * 10 + seq++).slice(-8)}`;

describe("@svc/client: metadata per call (D99)", () => {
  it("gives each of many concurrent calls its own response: request id, replay flag, status, rate limit", async () => {
    const bodies = Array.from({ length: 12 }, () => ({ phone: phone() }));
    const keys = bodies.map((_, i) => `wr-${Date.now()}-${i}`);
    // Half of them sent once before: their second sending is a replay, the others are new.
    await Promise.all(bodies.slice(0, 6).map((b, i) => svc.contacts.upsert(b, { idempotencyKey: keys[i] })));
    const calls = bodies.map((b, i) => svc.contacts.upsert(b, { idempotencyKey: keys[i] }));
    const answers = await Promise.all(calls.map((c) => c.withResponse()));
    expect(answers.map((a) => a.response.idempotentReplayed)).toEqual(bodies.map((_, i) => i < 6));
    expect(answers.map((a) => a.data.phone)).toEqual(bodies.map((b) => b.phone));
    const ids = answers.map((a) => a.response.requestId);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const a of answers) {
      expect(a.response.status).toEqual(expect.any(Number));
      expect([200, 201]).toContain(a.response.status);
      expect(a.response.rateLimit).toMatchObject({ limit: expect.any(Number), remaining: expect.any(Number) });
    }
    // The same call awaited without it is its body.
    await expect(calls[0]!).resolves.toEqual(answers[0]!.data);

    // A failure beside successes: each keeps its own request id.
    const [missing, found] = await Promise.allSettled([svc.contacts.get("ct_nope").withResponse(), svc.check().withResponse()]);
    expect(missing.status).toBe("rejected");
    expect(found.status).toBe("fulfilled");
    const error = (missing as PromiseRejectedResult).reason;
    expect(error.requestId).toEqual(expect.any(String));
    expect(error.requestId).not.toBe((found as PromiseFulfilledResult<{ response: { requestId: string } }>).value.response.requestId);
  });

  it("gives a list's pages with their responses, and reaches any endpoint with client.request()", async () => {
    for (let i = 0; i < 3; i++) await svc.tags.create({ name: `Paged ${Date.now()} ${i}` });
    const pages = [];
    for await (const page of svc.tags.list({ limit: 2 }).withResponse()) pages.push(page);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages.every((p) => p.data.length <= 2 && p.response.status === 200)).toBe(true);
    expect(new Set(pages.map((p) => p.response.requestId)).size).toBe(pages.length);

    const usage = await svc.request<{ period: string }>("GET", "/usage");
    expect(usage).toMatchObject({ period: expect.any(String) });
    const tag = await svc.request<{ id: string }>("POST", "/tags", { body: { name: `Raw ${Date.now()}` } }).withResponse();
    expect(tag.response.status).toBe(201);
    await expect(svc.request("DELETE", `/tags/${tag.data.id}`)).resolves.toEqual({ id: tag.data.id, deleted: true });
    await expect(svc.request("GET", "/nowhere")).rejects.toMatchObject({ status: 404, code: "route_not_found" });
  });

  it("creates, reads, replaces, moves and versions a flow, lists contacts and deletes what no flow names", async () => {
    const tag = await svc.tags.create({ name: `Flowed ${Date.now()}` });
    const flow: FlowWithDocument = await svc.flows.create({
      name: `Client flow ${Date.now()}`,
      status: "active",
      steps: [
        { id: "wait", type: "wait", duration: "P1D" },
        { id: "mark", type: "tag", add: [tag.id] },
      ],
    });
    expect(flow).toMatchObject({ version: 1, status: "active" });
    await expect(svc.flows.get(flow.id)).resolves.toEqual(flow);
    const same = await svc.flows.replace(flow.id, { ...flow.document, migrate: "keep" });
    expect(same.version).toBe(1);
    const next = await svc.flows.replace(flow.id, { ...flow.document, steps: [flow.document.steps[0]!], migrate: "move" });
    expect(next.version).toBe(2);
    const versions: FlowVersion[] = [];
    for await (const v of svc.flows.versions(flow.id, { limit: 1 })) versions.push(v);
    expect(versions.map((v) => [v.version, v.current])).toEqual([
      [1, false],
      [2, true],
    ]);
    // Version 1 still names the tag, but only the current version of a runnable flow holds it.
    await expect(svc.flows.replace(flow.id, { ...flow.document, name: "x", steps: [{ type: "bogus" }] })).rejects.toBeInstanceOf(
      SvcInvalidRequestError,
    );
    await expect(svc.tags.delete(tag.id)).resolves.toEqual({ id: tag.id, deleted: true });

    const held = await svc.fields.create({ name: "Held", key: `held_${Date.now()}`, type: "text" });
    await svc.flows.replace(flow.id, {
      ...next.document,
      steps: [{ id: "set", type: "set_field", key: held.key, value: "x" }],
      migrate: "keep",
    });
    const refused = await svc.fields.delete(held.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SvcConflictError);
    expect(refused).toMatchObject({ code: "in_use", param: "id" });
    await expect(svc.flows.setStatus(flow.id, "archived")).resolves.toMatchObject({ status: "archived" });
    await expect(svc.fields.delete(held.id)).resolves.toEqual({ id: held.id, deleted: true });
    const archived: string[] = [];
    for await (const f of svc.flows.list({ status: "archived" })) archived.push(f.id);
    expect(archived).toContain(flow.id);

    const contact = await svc.contacts.upsert({ phone: phone(), email: `listed.${Date.now()}@example.com` });
    const listed = [];
    for await (const c of svc.contacts.list({ email: contact.email!.toUpperCase() })) listed.push(c.id);
    expect(listed).toEqual([contact.id]);
    await expect(svc.contacts.find({ email: contact.email! })).resolves.toEqual(contact);
  });
});

describe("the README's journeys in git, deployed from CI (D98)", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-journeys-"));
    // The example as the README writes it, beside a node_modules that resolves @svc/client to this package.
    const readme = readFileSync(join(CLIENT, "README.md"), "utf8");
    const block = readme.split("<!-- deploy-flows.mjs")[1]!.split("```js\n")[1]!.split("```")[0]!;
    writeFileSync(join(dir, "deploy-flows.mjs"), block);
    mkdirSync(join(dir, "node_modules", "@svc"), { recursive: true });
    symlinkSync(CLIENT, join(dir, "node_modules", "@svc", "client"));
    mkdirSync(join(dir, "journeys"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const deploy = (command: string, env: Record<string, string> = {}) =>
    run(process.execPath, ["deploy-flows.mjs", command, "journeys"], {
      cwd: dir,
      env: { ...process.env, SVC_API_KEY: code.keys.test!, SVC_API_URL: baseUrl, ...env },
    });
  const owner = new Svc({ apiKey: code.keys.test!, baseUrl });
  const write = (file: string, doc: unknown) => writeFileSync(join(dir, "journeys", file), JSON.stringify(doc, null, 2));

  it(
    "creates the journeys, redeploys them unchanged, deploys an edit as a new version, and pulls them back as files",
    { timeout: 120_000 },
    async () => {
      const welcome = {
        name: "Welcome",
        status: "active",
        steps: [
          { id: "hello", type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}!" } },
          { id: "pause", type: "wait", duration: "P1D" },
          { id: "nudge", type: "send", channel: "whatsapp", whatsapp: { body: "Still there?" } },
        ],
      };
      const winback = { name: "Win-back", steps: [{ id: "later", type: "wait", duration: "P7D" }] };
      write("welcome.json", welcome);
      write("win-back.json", winback);

      const first = await deploy("push", { GITHUB_SHA: `sha-${Date.now()}` });
      expect(first.stdout).toMatch(/^welcome\.json: created flow_\S+ v1 \(request \S+\)$/m);
      expect(first.stdout).toMatch(/^win-back\.json: created flow_\S+ v1/m);
      const byName = new Map<string, FlowWithDocument>();
      for await (const f of owner.flows.list({ status: "active" })) byName.set(f.name, await owner.flows.get(f.id));
      for await (const f of owner.flows.list({ status: "draft" })) byName.set(f.name, await owner.flows.get(f.id));
      expect(byName.get("Welcome")).toMatchObject({ status: "active", version: 1 });
      expect(byName.get("Win-back")).toMatchObject({ status: "draft", version: 1 });

      // The same files again: nothing changes.
      const again = await deploy("push");
      expect(again.stdout).toMatch(/^welcome\.json: unchanged flow_\S+ active/m);
      expect(again.stdout).toMatch(/^win-back\.json: unchanged flow_\S+ draft/m);

      // A run waits at `pause`; the edit drops `hello` and is deployed with migrate move.
      const enrolled = await owner.flows.enroll(byName.get("Welcome")!.id, { to: { phone: phone() } });
      await expect.poll(async () => (await owner.runs.get(enrolled.id)).current_step?.id, { timeout: 30_000 }).toBe("pause");
      write("welcome.json", { ...welcome, steps: welcome.steps.slice(1) });
      const edited = await deploy("push", { SVC_MIGRATE: "move" });
      expect(edited.stdout).toMatch(/^welcome\.json: v1 -> v2 flow_\S+ active/m);
      expect((await owner.runs.get(enrolled.id)).current_step).toMatchObject({ id: "pause", path: "steps.0" });

      // A broken file: the deploy fails and names the file and the place in it.
      write("broken.json", { name: "Broken", steps: [{ id: "x", type: "send", channel: "whatsapp", whatsapp: { body: 5 } }] });
      const broken = await deploy("push").catch((e: { code: number; stdout: string; stderr: string }) => e);
      expect((broken as { code?: number }).code).toBe(1);
      expect((broken as { stderr: string }).stderr).toMatch(/^broken\.json: steps\.0\.whatsapp\.body steps\.0\.whatsapp\.body: /m);
      rmSync(join(dir, "journeys", "broken.json"));

      // Pulled back, each file is the service's document, and pushing it changes nothing.
      rmSync(join(dir, "journeys"), { recursive: true });
      const pulled = await deploy("pull");
      expect(pulled.stdout).toMatch(/^welcome\.json: pulled flow_/m);
      expect(readdirSync(join(dir, "journeys")).sort()).toEqual(["welcome.json", "win-back.json"]);
      const file = JSON.parse(readFileSync(join(dir, "journeys", "welcome.json"), "utf8"));
      expect(file).toEqual((await owner.flows.get(byName.get("Welcome")!.id)).document);
      expect(file.steps.map((s: { id: string }) => s.id)).toEqual(["pause", "nudge"]);
      const last = await deploy("push", { SVC_MIGRATE: "move" });
      expect(last.stdout).toMatch(/^welcome\.json: unchanged/m);
      expect(last.stdout).toMatch(/^win-back\.json: unchanged/m);
    },
  );
});
