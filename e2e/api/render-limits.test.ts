import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectError } from "../support/client.ts";
import { freshDatabase, seedFixtures } from "../support/database.ts";
import { startServer, type RunningServer } from "../support/server.ts";

// D48: the limits of the text fields apply to the rendered text, and rendering stops as soon
// as one is passed: a small request whose placeholders would multiply into hundreds of
// megabytes is refused at once and costs the server no memory.
// A server and database of this file's own: its memory is what these requests cost, not what
// other test files running at the same time cost the suite's server.
let database: Awaited<ReturnType<typeof freshDatabase>>;
let server: RunningServer;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  database = await freshDatabase(inject("api").engine, "render", { migrated: true });
  const fx = seedFixtures(database.env);
  server = await startServer(database.env);
  client = api(fx.messages!.keys.test, server.url);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const AMP = "&".repeat(1000); // 5,000 characters once escaped into HTML

/** The server's resident and peak memory in MB (/proc/<pid>/status). */
function memory(): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${server.process.pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)![1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

describe("rendered-length limits (D48)", () => {
  it("refuses a 195 KB e-mail whose placeholders would render 195,000,000 characters, at once and without memory", async () => {
    const body = {
      channel: "email",
      to: { email: "amplified@example.com" },
      email: { subject: "Hi", html: "{{a}}".repeat(39_000) },
      variables: { a: AMP },
    };
    expect(JSON.stringify(body).length).toBeLessThan(256 * 1024);
    // Three at once, as the attack was measured. The embedded store alone keeps the server
    // over 400 MB, so what is measured is what the requests add (+415 MB each before).
    const before = memory();
    const started = Date.now();
    const answers = await Promise.all([1, 2, 3].map(() => client.post("/messages", body)));
    const elapsed = Date.now() - started;
    for (const res of answers) expectError(res, { status: 400, type: "invalid_request", code: "rendered_too_long", param: "email.html" });
    const after = memory();
    console.log(
      `3 amplified requests answered in ${elapsed} ms; server RSS ${before.rss.toFixed(0)} -> ${after.rss.toFixed(0)} MB, ` +
        `peak ${before.peak.toFixed(0)} -> ${after.peak.toFixed(0)} MB`,
    );
    expect(after.peak - before.peak).toBeLessThan(100);
    expect(after.rss - before.rss).toBeLessThan(100);
    // Rendering stops at 512 KiB: well under a second each even on a busy machine (3.3 s before).
    expect(elapsed).toBeLessThan(3_000);
  });

  it("checks whatsapp.body (4096 characters) and email.subject (998) after rendering", async () => {
    const whatsapp = await client.post("/messages", {
      channel: "whatsapp",
      to: { phone: "+5511988887777" },
      whatsapp: { body: "{{a}}".repeat(5) },
      variables: { a: "x".repeat(820) },
    });
    expectError(whatsapp, { status: 400, type: "invalid_request", code: "rendered_too_long", param: "whatsapp.body" });
    const subject = await client.post("/messages", {
      channel: "email",
      to: { email: "subject@example.com" },
      email: { subject: "{{a}}{{a}}", html: "<p>x</p>" },
      variables: { a: "s".repeat(500) },
    });
    expectError(subject, { status: 400, type: "invalid_request", code: "rendered_too_long", param: "email.subject" });
  });

  it("accepts a rendered text exactly at its limit", async () => {
    const res = await client.post("/messages", {
      channel: "whatsapp",
      to: { phone: "+5511988887778" },
      whatsapp: { body: "{{a}}".repeat(4) },
      variables: { a: "y".repeat(1000) },
    });
    expect(res.status, res.text).toBe(202);
    const exact = await client.post("/messages", {
      channel: "whatsapp",
      to: { phone: "+5511988887778" },
      whatsapp: { body: "{{a}}".repeat(4) + "z".repeat(96) },
      variables: { a: "y".repeat(1000) },
    });
    expect(exact.status, exact.text).toBe(202);
  });
});
