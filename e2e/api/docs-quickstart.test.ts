import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { fixtures } from "../support/client.ts";
import { ROOT } from "../support/server.ts";
import { until } from "../support/until.ts";

// D80: /docs opens with a quickstart that a developer completes by pasting each block, in
// order, with a test key. This test does exactly that against an empty workspace of its own:
// it reads the blocks from the page as the server renders it, runs each `run` block in bash
// (after the `export` blocks before it, as one terminal would have them), starts each
// `background` block as a terminal of its own would, and checks what each step promises.
// The receiver block listens on port 4242, as the page says: so it runs on one engine only
// (the embedded store, `npm start`'s default), never twice at once on that fixed port.
const { baseUrl } = inject("api");
const ws = fixtures().quickstart!;

const decode = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

type Block = { kind: "run" | "background"; text: string };

async function blocks(): Promise<Block[]> {
  const html = await (await fetch(`${baseUrl}/docs`)).text();
  return [...html.matchAll(/<pre[^>]*data-quickstart="(run|background)"[^>]*>([\s\S]*?)<\/pre>/g)].map((m) => ({
    kind: m[1] as Block["kind"],
    text: decode(m[2]!),
  }));
}

// svc listen keeps its secret under XDG_CONFIG_HOME: a directory of this run's, not the machine's.
const env = {
  ...process.env,
  SVC_API_KEY: ws.keys.test!,
  XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "svc-listen-")),
  DATABASE_URL: "",
  DATA_DIR: "",
};
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGTERM");
});

describe.runIf(process.env.SVC_ENGINE === "pglite")("the /docs quickstart (D80)", () => {
  it("is completed by pasting each block as written, in order", { timeout: 300_000 }, async () => {
    const all = await blocks();
    expect(all.map((b) => b.kind)).toEqual(["run", "run", "background", "background", "run", "run", "run"]);
    const exports = all.filter((b) => b.kind === "run" && b.text.startsWith("export ")).map((b) => b.text);
    expect(exports).toEqual([`export SVC_API_URL=${baseUrl}`]);
    const run = (text: string) => execFileSync("bash", ["-c", `${exports.join("\n")}\n${text}`], { cwd: ROOT, env }).toString();
    const outputs: string[] = [];
    const [, check, receiverBlock, listenBlock, whatsapp, email, status] = all;

    // 1. The key.
    expect(JSON.parse(run(check!.text))).toMatchObject({ ok: true, mode: "test" });

    // 2. The receiver and svc listen, each in a terminal of its own.
    for (const block of [receiverBlock!, listenBlock!]) {
      const child = spawn("bash", ["-c", `${exports.join("\n")}\nexec ${block.text}`], { cwd: ROOT, env });
      started.push(child);
      const index = outputs.push("") - 1;
      child.stdout!.on("data", (d: Buffer) => (outputs[index] += d.toString()));
      child.stderr!.on("data", (d: Buffer) => (outputs[index] += d.toString()));
    }
    await until(
      () => outputs[1]!,
      (o) => o.includes("Webhook signing secret: whsec_"),
      120_000,
    );

    // 3. The two sends.
    const sent = [JSON.parse(run(whatsapp!.text)), JSON.parse(run(email!.text))] as { id: string; status: string }[];
    for (const m of sent) expect(m).toMatchObject({ id: expect.stringMatching(/^msg_/), status: "queued" });

    // Their three events each reach the receiver through svc listen.
    for (const m of sent) {
      await until(
        () => outputs[0]!,
        (o) =>
          ["mensagem.enviada", "mensagem.entregue", "mensagem.lida"].every((e) => new RegExp(`"event":"${e}".*"id":"${m.id}"`).test(o)),
        60_000,
      );
    }

    // 4. The final status.
    const listed = JSON.parse(run(status!.text)) as { id: string; status: string }[];
    expect(listed.map((m) => [m.id, m.status]).sort()).toEqual(sent.map((m) => [m.id, "read"]).sort());
  });
});
