import { execFileSync } from "node:child_process";
import { generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectChannel } from "../../server/channels/connect-channel.ts";
import { upsertContact } from "../../server/contacts/upsert-contact.ts";
import type { Database } from "../../server/db/client.ts";
import { handleSesNotification } from "../../server/inbound/ses-notifications.ts";
import { clearSnsCertificates } from "../../server/inbound/sns.ts";
import { OPERATOR } from "../../server/lib/caller.ts";
import { env } from "../../server/lib/env.ts";
import { newId } from "../../server/lib/ids.ts";
import { createWorkspace } from "../../server/workspaces/create-workspace.ts";
import { memoryDatabase } from "./memory-database.ts";

// D73 path (2), D85: Amazon SES notifications through SNS, in SNS's and SES's own formats,
// signed with a test certificate (made here with openssl) that a local certificate host serves;
// SNS_CERT_HOSTS names that host (over http on loopback, as ALLOW_PRIVATE_WEBHOOKS=1 allows in
// this project). Against a real database (an in-memory PGlite with the migrations).

let database: Database;
let certHost: Server;
let hostUrl = "";
let dir = "";
let privateKey = "";
let workspace = "";
let channelId = "";
let contactId = "";
const requests: string[] = [];
const ADDRESS = "ana@example.com";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-sns-"));
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=sns.us-east-1.amazonaws.com"],
      ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
    ],
    { stdio: "ignore" },
  );
  privateKey = readFileSync(join(dir, "key.pem"), "utf8");
  const certificate = readFileSync(join(dir, "cert.pem"), "utf8");
  certHost = createServer((req, res) => {
    requests.push(req.url ?? "");
    if (req.url === "/SimpleNotificationService-test.pem") return res.end(certificate);
    if (req.url?.startsWith("/?Action=ConfirmSubscription")) return res.end("<ConfirmSubscriptionResponse/>");
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => certHost.listen(0, "127.0.0.1", resolve));
  hostUrl = `http://127.0.0.1:${(certHost.address() as AddressInfo).port}`;
  process.env.SNS_CERT_HOSTS = new URL(hostUrl).host; // read by env() at the first notification
  database = await memoryDatabase();
  workspace = (await createWorkspace(database, { name: "SES" }, OPERATOR)).id;
  channelId = (
    await connectChannel(database, workspace, { type: "email", smtp_url: "smtp://127.0.0.1:2525", from: "news@shop.example" }, OPERATOR)
  ).channel_id;
  contactId = (await upsertContact(database, { workspaceId: workspace, mode: "live" }, { email: ADDRESS, name: "Ana" })).id;
});
afterAll(async () => {
  await database?.close();
  await new Promise((resolve) => certHost?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.prisma.suppression.deleteMany({ where: { workspaceId: workspace } });
  await database.prisma.contact.updateMany({ where: { id: contactId }, data: { optOutEmail: false } });
});

/** A sent e-mail of the channel; `sesId` is the id the relay (SES) gave in its 250 reply. */
async function sentMessage(sesId: string | null) {
  const id = newId("message");
  await database.prisma.message.create({
    data: {
      id,
      workspaceId: workspace,
      mode: "live",
      channel: "email",
      channelId,
      contactId,
      to: ADDRESS,
      status: "sent",
      content: {},
      providerMessageId: sesId,
      sentAt: new Date(),
    },
  });
  return id;
}

const state = (id: string) =>
  database.prisma.message.findFirstOrThrow({ where: { id }, select: { status: true, errorCode: true, error: true } });
const suppressions = () =>
  database.prisma.suppression.findMany({ where: { workspaceId: workspace }, select: { email: true, reason: true, messageId: true } });

type Fields = Record<string, string>;

/** SNS's string to sign (AWS docs, "Verifying the signatures of Amazon SNS messages"), written out here on purpose. */
function signed(fields: Fields, version: "1" | "2" = "1", key = privateKey): Fields {
  const names =
    fields.Type === "Notification"
      ? ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"]
      : ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"];
  const text = names
    .filter((n) => fields[n] !== undefined)
    .map((n) => `${n}\n${fields[n]}\n`)
    .join("");
  const signature = sign(version === "1" ? "RSA-SHA1" : "RSA-SHA256", Buffer.from(text), key).toString("base64");
  return { ...fields, SignatureVersion: version, Signature: signature };
}

const TOPIC = "arn:aws:sns:us-east-1:123456789012:ses-notifications";

function notification(message: object, extra: Partial<Fields> = {}): Fields {
  return {
    Type: "Notification",
    MessageId: randomUUID(),
    TopicArn: TOPIC,
    Message: JSON.stringify(message),
    Timestamp: new Date().toISOString(),
    SigningCertURL: `${hostUrl}/SimpleNotificationService-test.pem`,
    UnsubscribeURL: `${hostUrl}/?Action=Unsubscribe&SubscriptionArn=${TOPIC}:1`,
    ...extra,
  };
}

/** An SES notification as SES publishes it (notificationType, mail, bounce/complaint/delivery). */
const ses = (type: "Bounce" | "Complaint" | "Delivery", mail: { sesId: string; messageIdHeader?: string }, body: object) => ({
  notificationType: type,
  mail: {
    timestamp: new Date().toISOString(),
    source: "news@shop.example",
    sourceArn: "arn:aws:ses:us-east-1:123456789012:identity/shop.example",
    sendingAccountId: "123456789012",
    messageId: mail.sesId,
    destination: [ADDRESS],
    headersTruncated: false,
    headers: [
      { name: "From", value: "news@shop.example" },
      { name: "To", value: ADDRESS },
      ...(mail.messageIdHeader ? [{ name: "Message-ID", value: mail.messageIdHeader }] : []),
    ],
    commonHeaders: { from: ["news@shop.example"], to: [ADDRESS], ...(mail.messageIdHeader ? { messageId: mail.messageIdHeader } : {}) },
  },
  ...body,
});

const post = (fields: Fields, channel = channelId) => handleSesNotification(database, channel, JSON.stringify(fields));
const sesId = () => `0100019${randomUUID().replace(/-/g, "").slice(0, 9)}-${randomUUID()}-000000`;

const permanentBounce = {
  bounce: {
    bounceType: "Permanent",
    bounceSubType: "General",
    bouncedRecipients: [{ emailAddress: ADDRESS, action: "failed", status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 user unknown" }],
    timestamp: new Date().toISOString(),
    feedbackId: "0100019-feedback",
    reportingMTA: "dsn; a8-70.smtp-out.amazonses.com",
  },
};

describe("SNS subscriptions", () => {
  it("a SubscriptionConfirmation is verified and followed: its SubscribeURL is fetched", async () => {
    expect(env().snsCertHosts).toEqual([new URL(hostUrl).host]);
    const token = randomUUID().replace(/-/g, "");
    const subscribe = `${hostUrl}/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=${token}`;
    const outcome = await post(
      signed({
        Type: "SubscriptionConfirmation",
        MessageId: randomUUID(),
        Token: token,
        TopicArn: TOPIC,
        Message: `You have chosen to subscribe to the topic ${TOPIC}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
        SubscribeURL: subscribe,
        Timestamp: new Date().toISOString(),
        SigningCertURL: `${hostUrl}/SimpleNotificationService-test.pem`,
      }),
    );
    expect(outcome).toEqual({ status: 200, body: { subscribed: true, topic_arn: TOPIC } });
    expect(requests).toContain(new URL(subscribe).pathname + new URL(subscribe).search);
  });

  it("a SubscribeURL on another host is not fetched", async () => {
    const before = requests.length;
    const outcome = await post(
      signed({
        Type: "SubscriptionConfirmation",
        MessageId: randomUUID(),
        Token: "t",
        TopicArn: TOPIC,
        Message: "confirm",
        SubscribeURL: "https://evil.example/?Action=ConfirmSubscription",
        Timestamp: new Date().toISOString(),
        SigningCertURL: `${hostUrl}/SimpleNotificationService-test.pem`,
      }),
    );
    expect(outcome.status).toBe(403);
    expect(requests.slice(before).filter((r) => r.includes("Confirm"))).toEqual([]);
  });
});

describe("SES notifications", () => {
  it("a permanent Bounce (signature version 1), matched by SES's message id: failed with smtp_550, the address suppressed", async () => {
    const id = sesId();
    const message = await sentMessage(id);
    const outcome = await post(signed(notification(ses("Bounce", { sesId: id }, permanentBounce))));
    expect(outcome).toEqual({ status: 200, body: { message_id: message, applied: true } });
    expect(await state(message)).toMatchObject({ status: "failed", errorCode: "smtp_550", error: "Bounced: 550 5.1.1 user unknown" });
    expect(await suppressions()).toEqual([{ email: ADDRESS, reason: "hard_bounce", messageId: message }]);
  });

  it("a Complaint (signature version 2), matched by the Message-ID header: suppressed and the contact opted out", async () => {
    const message = await sentMessage(null);
    const complaint = {
      complaint: {
        complainedRecipients: [{ emailAddress: ADDRESS }],
        timestamp: new Date().toISOString(),
        feedbackId: "0100019-complaint",
        complaintFeedbackType: "abuse",
        userAgent: "Yahoo!-Mail-Feedback/2.0",
      },
    };
    const outcome = await post(
      signed(notification(ses("Complaint", { sesId: sesId(), messageIdHeader: `<${message}@shop.example>` }, complaint)), "2"),
    );
    expect(outcome).toEqual({ status: 200, body: { message_id: message, applied: true } });
    expect(await suppressions()).toEqual([{ email: ADDRESS, reason: "complaint", messageId: message }]);
    expect((await database.prisma.contact.findFirstOrThrow({ where: { id: contactId } })).optOutEmail).toBe(true);
  });

  it("a Delivery makes the message delivered; a Transient bounce changes nothing but its history", async () => {
    const id = sesId();
    const message = await sentMessage(id);
    const transient = { bounce: { ...permanentBounce.bounce, bounceType: "Transient", bounceSubType: "MailboxFull" } };
    expect((await post(signed(notification(ses("Bounce", { sesId: id }, transient)), "2"))).status).toBe(200);
    expect((await state(message)).status).toBe("sent");
    expect(await suppressions()).toEqual([]);
    const delivery = {
      delivery: { timestamp: new Date().toISOString(), recipients: [ADDRESS], smtpResponse: "250 ok", processingTimeMillis: 512 },
    };
    expect(await post(signed(notification(ses("Delivery", { sesId: id }, delivery)), "2"))).toEqual({
      status: 200,
      body: { message_id: message, applied: true },
    });
    expect((await state(message)).status).toBe("delivered");
  });

  it("a replayed notification is not applied again", async () => {
    const id = sesId();
    const message = await sentMessage(id);
    const once = signed(notification(ses("Bounce", { sesId: id }, permanentBounce)));
    expect((await post(once)).status).toBe(200);
    await database.prisma.suppression.deleteMany({ where: { workspaceId: workspace } });
    const history = await database.prisma.messageHistory.count({ where: { messageId: message } });
    expect(await post(once)).toEqual({ status: 200, body: { ignored: "this SNS message was already taken" } });
    expect(await suppressions()).toEqual([]);
    expect(await database.prisma.messageHistory.count({ where: { messageId: message } })).toBe(history);
  });

  it("a notification for no message of this channel changes nothing", async () => {
    expect((await post(signed(notification(ses("Bounce", { sesId: sesId() }, permanentBounce))))).body).toEqual({
      ignored: "no message of this channel has this id",
    });
    expect(await suppressions()).toEqual([]);
  });
});

describe("refused without a change", () => {
  it.each([
    {
      what: "a forged message (changed after signing)",
      fields: (m: Fields) => ({ ...m, Message: m.Message!.replace("Permanent", "Permanent ") }),
      status: 401,
    },
    {
      what: "a signature by another key",
      fields: (m: Fields) => {
        const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
        const { Signature: _s, SignatureVersion: _v, ...unsigned } = m;
        return signed(unsigned, "1", other);
      },
      status: 401,
    },
    {
      what: "a certificate URL on another host",
      fields: (m: Fields) => ({ ...m, SigningCertURL: "https://evil.example/cert.pem" }),
      status: 403,
    },
    {
      what: "a certificate URL over plain http on an SNS host",
      fields: (m: Fields) => ({ ...m, SigningCertURL: "http://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem" }),
      status: 403,
    },
    {
      what: "a message signed two hours ago (a replay outside the window)",
      fields: (m: Fields) => {
        const { Signature: _s, SignatureVersion: _v, ...unsigned } = m;
        return signed({ ...unsigned, Timestamp: new Date(Date.now() - 2 * 3600_000).toISOString() });
      },
      status: 401,
    },
    { what: "a body that is not an SNS message", fields: () => ({ hello: "world" }), status: 400 },
  ])("$what", async ({ fields, status }) => {
    const id = sesId();
    const message = await sentMessage(id);
    const before = requests.length;
    const outcome = await post(fields(signed(notification(ses("Bounce", { sesId: id }, permanentBounce)))) as Fields);
    expect(outcome.status).toBe(status);
    expect(await state(message)).toMatchObject({ status: "sent" });
    expect(await suppressions()).toEqual([]);
    // Nothing was fetched but, at most, the allowed host's certificate.
    expect(requests.slice(before).filter((r) => r !== "/SimpleNotificationService-test.pem")).toEqual([]);
  });

  it("an unknown channel is not found", async () => {
    const fields = signed(notification(ses("Bounce", { sesId: sesId() }, permanentBounce)));
    expect((await post(fields, "ch_unknown")).status).toBe(404);
  });

  it("the certificate is fetched once and cached", async () => {
    clearSnsCertificates();
    const before = requests.filter((r) => r.endsWith(".pem")).length;
    for (let i = 0; i < 3; i++) {
      const id = sesId();
      await sentMessage(id);
      // The whole answer: a refusal says why (a certificate fetch past its timeout on a starved machine reads differently from a bad signature).
      expect(await post(signed(notification(ses("Delivery", { sesId: id }, { delivery: {} }))))).toMatchObject({ status: 200 });
    }
    expect(requests.filter((r) => r.endsWith(".pem")).length - before).toBe(1);
  });
});
