import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { pgDatabase, type Database } from "../../server/db/client.ts";
import { STORE_SOCKET_PORT } from "../../server/db/store-server.ts";
import { startBounceListener, type BounceListener } from "../../server/inbound/bounce-listener.ts";
import { api, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { entrySentence, type HistoryEntry } from "../../app/w/[workspace]/messages/_components/message-sentences.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { poller } from "../support/until.ts";

// D73 path (1): the service's SMTP listener over a real SMTP session. The listener runs in this
// process (the server starts the same one when INBOUND_SMTP_PORT is set) on the API server's
// database, so the reports it applies are what the API then answers. Each outgoing mail of a
// channel with a bounce domain carries the return path bounces+<msg id>@<bounce domain>.
const ws = fixtures().bounces!;
const other = fixtures().bouncesOther!;
const live = api(ws.keys.live);
const { env } = inject("api");
const until = poller(20_000);
const BOUNCE_DOMAIN = "bounces.shop.example";
let smtp: SmtpSink;
let database: Database;
let listener: BounceListener;

beforeAll(async () => {
  smtp = await startSmtpSink();
  await dashboardMutation(ws.id, "channels.connect", {
    type: "email",
    smtp_url: smtp.url,
    from: "news@shop.example",
    bounce_domain: BOUNCE_DOMAIN,
  });
  // Another workspace's channel with the same bounce domain: its messages are its own.
  await dashboardMutation(other.id, "channels.connect", { type: "email", smtp_url: smtp.url, from: "o@other.example" });
  database = env.DATABASE_URL
    ? await pgDatabase({ connectionString: env.DATABASE_URL }, 2, true)
    : {
        ...(await pgDatabase({ host: env.DATA_DIR, port: STORE_SOCKET_PORT, user: "postgres", database: "postgres" }, 2, false)),
        engine: "pglite",
      };
  listener = await startBounceListener(database, 0, "127.0.0.1");
});

afterAll(async () => {
  await listener?.close();
  await database?.close();
  await smtp?.close();
});

/** One real SMTP session to the listener: MAIL FROM <> (a bounce), RCPT TO `to`, the raw mail. */
async function deliver(
  to: string,
  raw: string,
): Promise<{ ok: true } | { ok: false; code: number | undefined; command: string | undefined }> {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ envelope: { from: "", to }, raw });
    return { ok: true };
  } catch (err) {
    const e = err as { responseCode?: number; command?: string };
    return { ok: false, code: e.responseCode, command: e.command };
  } finally {
    transport.close();
  }
}

const dsn = (messageId: string, status = "5.1.1", diagnostic = "smtp; 550 5.1.1 User unknown") =>
  [
    "From: Mail Delivery System <MAILER-DAEMON@mx.example.net>",
    `To: bounces+${messageId}@${BOUNCE_DOMAIN}`,
    "Subject: Undelivered Mail Returned to Sender",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    "",
    "--b1",
    "Content-Type: text/plain",
    "",
    "Your message could not be delivered.",
    "--b1",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.net",
    "",
    "Final-Recipient: rfc822; someone@example.com",
    `Action: ${status.startsWith("5") ? "failed" : "delayed"}`,
    `Status: ${status}`,
    `Diagnostic-Code: ${diagnostic}`,
    "",
    "--b1",
    "Content-Type: text/rfc822-headers",
    "",
    `Message-ID: <${messageId}@shop.example>`,
    "",
    "--b1--",
    "",
  ].join("\r\n");

const arf = (messageId: string) =>
  [
    "From: fbl@isp.example",
    `To: bounces+${messageId}@${BOUNCE_DOMAIN}`,
    "Subject: Abuse report",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=feedback-report; boundary="c1"',
    "",
    "--c1",
    "Content-Type: text/plain",
    "",
    "This is an abuse report.",
    "--c1",
    "Content-Type: message/feedback-report",
    "",
    "Feedback-Type: abuse",
    "User-Agent: ISP-FBL/1.0",
    "Version: 1",
    "",
    "--c1",
    "Content-Type: message/rfc822",
    "",
    "From: news@shop.example",
    `Message-ID: <${messageId}@shop.example>`,
    "Subject: Hi",
    "",
    "Hello",
    "--c1--",
    "",
  ].join("\r\n");

async function sent(): Promise<{ id: string; email: string; contact: string }> {
  const email = `r.${randomUUID().slice(0, 8)}@example.com`;
  const res = await live.post("/messages", { channel: "email", to: { email }, email: { subject: "Hi", html: "<p>Hi</p>" } });
  expect(res.status).toBe(202);
  const done = await until(
    () => live.get(`/messages/${res.body.id}`),
    (r) => r.body.status === "sent",
  );
  return { id: res.body.id, email, contact: done.body.contact_id };
}
/** The report entry of a message's history, and the sentence the message inspector shows for it. */
async function reportOf(id: string): Promise<{ detail: unknown; sentence: string }> {
  const { history } = await dashboardQuery<{ history: HistoryEntry[] }>(ws.id, "messages.detail", { id });
  const entry = history.find((e) => e.kind === "provider_report");
  expect(entry, JSON.stringify(history)).toBeDefined();
  return { detail: entry!.detail, sentence: entrySentence(entry!, "email") };
}

const suppressed = async (email: string) =>
  ((await live.get("/suppressions?limit=1000")).body as { email: string; reason: string; message_id: string }[]).find(
    (s) => s.email === email,
  );

describe("the return path (VERP)", () => {
  it("is bounces+<message id>@<bounce domain> on each mail of a channel with a bounce domain", async () => {
    const { id } = await sent();
    const mail = smtp.messages.find((m) => m.raw.includes(`<${id}@shop.example>`));
    expect(mail?.from).toBe(`bounces+${id}@${BOUNCE_DOMAIN}`);
  });
});

describe("the SMTP listener (D73)", () => {
  it("a permanent DSN fails the message (smtp_550) and suppresses its address; the next live send is refused", async () => {
    const { id, email } = await sent();
    expect(await deliver(`bounces+${id}@${BOUNCE_DOMAIN}`, dsn(id))).toEqual({ ok: true });
    const failed = await until(
      () => live.get(`/messages/${id}`),
      (r) => r.body.status === "failed",
    );
    expect(failed.body.error_code).toBe("smtp_550");
    expect(await suppressed(email)).toMatchObject({ reason: "hard_bounce", message_id: id });
    // The inspector shows the report that failed it, in words.
    const report = await reportOf(id);
    expect(report.detail).toMatchObject({ source: "inbound_smtp", bounce: "permanent", status: "5.1.1" });
    expect(report.sentence).toBe(
      "The receiving mail server bounced it for good (via a report mailed to the bounce address): status 5.1.1, “550 5.1.1 User unknown”. The address is suppressed: live e-mail to it is refused.",
    );
    const again = await live.post("/messages", { channel: "email", to: { email }, email: { html: "x" } });
    expect(again.body.error).toMatchObject({ code: "recipient_suppressed", param: "to.email" });
  });

  it("a delay notice (4.x.x) changes nothing", async () => {
    const { id, email } = await sent();
    expect(await deliver(`bounces+${id}@${BOUNCE_DOMAIN}`, dsn(id, "4.2.2", "smtp; 452 4.2.2 Mailbox full"))).toEqual({ ok: true });
    expect((await live.get(`/messages/${id}`)).body.status).toBe("sent");
    expect(await suppressed(email)).toBeUndefined();
  });

  it("a complaint (ARF) suppresses the address and opts the contact out of e-mail", async () => {
    const { id, email, contact } = await sent();
    expect(await deliver(`bounces+${id}@${BOUNCE_DOMAIN}`, arf(id))).toEqual({ ok: true });
    expect(await suppressed(email)).toMatchObject({ reason: "complaint", message_id: id });
    expect((await live.get(`/contacts/${contact}`)).body.opt_out_email).toBe(true);
    expect((await reportOf(id)).sentence).toBe(
      "The recipient marked it as spam (via a report mailed to the bounce address), feedback type “abuse”. The address is suppressed and the contact no longer receives e-mail.",
    );
  });

  it("refuses at RCPT TO anything but a return path of a known message of a channel with that domain", async () => {
    const { id } = await sent();
    expect(await deliver(`postmaster@${BOUNCE_DOMAIN}`, dsn(id))).toMatchObject({ ok: false, code: 550, command: "RCPT TO" });
    expect(await deliver(`bounces+msg_unknown123@${BOUNCE_DOMAIN}`, dsn(id))).toMatchObject({ ok: false, code: 550 });
    expect(await deliver(`bounces+${id}@elsewhere.example`, dsn(id))).toMatchObject({ ok: false, code: 550 });
    // Another workspace's message, sent through a channel without this bounce domain.
    const others = await api(other.keys.live).post("/messages", { channel: "email", to: { email: "x@example.com" }, email: { html: "x" } });
    expect(await deliver(`bounces+${others.body.id}@${BOUNCE_DOMAIN}`, dsn(others.body.id))).toMatchObject({ ok: false, code: 550 });
    expect((await live.get(`/messages/${id}`)).body.status).toBe("sent");
  });

  it("refuses a mail that is no report (550) and one over the size limit (552), changing nothing", async () => {
    const { id, email } = await sent();
    const plain = ["From: a@b.example", `To: bounces+${id}@${BOUNCE_DOMAIN}`, "Subject: hello", "", "Just text."].join("\r\n");
    expect(await deliver(`bounces+${id}@${BOUNCE_DOMAIN}`, plain)).toMatchObject({ ok: false, code: 550 });
    const huge = dsn(id).replace("Your message could not be delivered.", "x".repeat(2 * 1024 * 1024));
    expect(await deliver(`bounces+${id}@${BOUNCE_DOMAIN}`, huge)).toMatchObject({ ok: false, code: 552 });
    expect((await live.get(`/messages/${id}`)).body.status).toBe("sent");
    expect(await suppressed(email)).toBeUndefined();
  });
});
