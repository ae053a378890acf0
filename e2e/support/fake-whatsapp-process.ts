import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startFakeWhatsApp, type FakeTemplate, type FakeWhatsAppMode, type FakeWhatsAppRequest } from "./fake-whatsapp.ts";

// The fake Cloud API in a process of its own, for tests that starve the CPU on purpose
// (e2e/api/starved-cpu.test.ts). In the test's process its event loop also runs the test's
// own senders and pollers, and Node accepts one connection per turn of that loop: starved, it
// let new connections wait in its listen queue for 12-14 s, past the 15 s deadline with its
// 3 s answer, so the test measured the fake's starvation, not the instances'. Here its loop
// does nothing else. The test reads what it received and changes its mode through IPC.

type Command = { id: number } & (
  | { op: "templates"; waba: string; templates: FakeTemplate[] }
  | { op: "mode"; mode: FakeWhatsAppMode }
  | { op: "requests" }
  | { op: "close" }
);

export type FakeWhatsAppProcess = {
  url: string;
  setTemplates(waba: string, templates: FakeTemplate[]): Promise<void>;
  setMode(mode: FakeWhatsAppMode): Promise<void>;
  /** What it received so far (the headers left out). */
  requests(): Promise<Omit<FakeWhatsAppRequest, "headers">[]>;
  close(): Promise<void>;
};

export async function startFakeWhatsAppProcess(opts: { latencyMs?: number } = {}): Promise<FakeWhatsAppProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--child", JSON.stringify(opts)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, (value: any) => void>();
  let next = 0;
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the fake Cloud API process exited with ${code}`)));
    child.on("message", (m: { id?: number; url?: string; value?: unknown }) => {
      if (m.url) return resolve(m.url);
      pending.get(m.id!)?.(m.value);
      pending.delete(m.id!);
    });
  });
  const call = (command: Record<string, unknown>) =>
    new Promise<any>((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      child.send({ ...command, id });
    });
  return {
    url,
    setTemplates: (waba, templates) => call({ op: "templates", waba, templates }),
    setMode: (mode) => call({ op: "mode", mode }),
    requests: () => call({ op: "requests" }),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await call({ op: "close" });
      await exited;
    },
  };
}

if (process.argv[2] === "--child") {
  const fake = await startFakeWhatsApp(JSON.parse(process.argv[3] ?? "{}"));
  process.on("message", async (c: Command) => {
    let value: unknown = null;
    if (c.op === "templates") fake.templates.set(c.waba, c.templates);
    else if (c.op === "mode") fake.setMode(c.mode);
    else if (c.op === "requests") value = fake.requests.map(({ headers: _headers, ...r }) => r);
    else if (c.op === "close") await fake.close();
    process.send!({ id: c.id, value });
    if (c.op === "close") process.disconnect();
  });
  process.send!({ url: fake.url });
}
