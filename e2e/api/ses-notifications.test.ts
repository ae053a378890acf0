import { randomUUID, sign } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, fixtures } from "../support/client.ts";
import { dashboardMutation } from "../support/dashboard.ts";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";
import { poller } from "../support/until.ts";

// D73 path (2) over HTTP on both engines: an SES bounce notification posted by "SNS" to
// `POST /api/providers/email/ses/{channel_id}`, signed with the test certificate that the API
// tests' certificate host serves (SNS_CERT_HOSTS of the server, e2e/support/global-setup.ts).
// The live message it names fails and its address is suppressed; a forged or replayed one
// changes nothing. The SNS/SES formats in detail: e2e/providers/ses-notifications.test.ts.

const ws = fixtures().ses!;
const live = api(ws.keys.live);
const { baseUrl, sns } = inject("api");
const until = poller(20_000);
const TOPIC = "arn:aws:sns:us-east-1:123456789012:ses-notifications";
let smtp: SmtpSink;
let channelId = "";

beforeAll(async () => {
  // Answers as SES's SMTP interface does: `250 Ok <SES message id>`.
  smtp = await startSmtpSink({ replyLike: "ses" });
  ({ channel_id: channelId } = await dashboardMutation<{ channel_id: string }>(ws.id, "channels.connect", {
    type: "email",
    smtp_url: smtp.url,
    from: "news@ses.example",
  }));
});
afterAll(async () => {
  await smtp?.close();
});

/**
 * An SNS Notification carrying an SES Bounce for the mail SES took as `sesId`, signed (version
 * 2) as SNS signs. SES replaces a mail's Message-ID header with its own, so the notification
 * names our message only by the id SES gave in its 250 reply.
 */
function bounceNotification(sesId: string, address: string): Record<string, string> {
  const fields: Record<string, string> = {
    Type: "Notification",
    MessageId: randomUUID(),
    TopicArn: TOPIC,
    Message: JSON.stringify({
      notificationType: "Bounce",
      mail: {
        timestamp: new Date().toISOString(),
        source: "news@ses.example",
        messageId: sesId,
        destination: [address],
        headers: [{ name: "Message-ID", value: `<${sesId}@email.amazonses.com>` }],
        commonHeaders: { messageId: `<${sesId}@email.amazonses.com>` },
      },
      bounce: {
        bounceType: "Permanent",
        bounceSubType: "General",
        bouncedRecipients: [{ emailAddress: address, action: "failed", status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 user unknown" }],
        timestamp: new Date().toISOString(),
      },
    }),
    Timestamp: new Date().toISOString(),
    SigningCertURL: sns.certUrl,
  };
  const text = ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"]
    .filter((n) => fields[n] !== undefined)
    .map((n) => `${n}\n${fields[n]}\n`)
    .join("");
  return { ...fields, SignatureVersion: "2", Signature: sign("RSA-SHA256", Buffer.from(text), sns.privateKey).toString("base64") };
}

const post = (body: unknown) =>
  fetch(`${baseUrl}/api/providers/email/ses/${channelId}`, {
    method: "POST",
    headers: { "Content-Type": "text/plain; charset=UTF-8", "x-amz-sns-message-type": "Notification" },
    body: JSON.stringify(body),
  });

async function sentMessage(): Promise<{ id: string; email: string; sesId: string }> {
  const email = `ses.${randomUUID().slice(0, 8)}@example.com`;
  const res = await live.post("/messages", { channel: "email", to: { email }, email: { subject: "Hi", html: "<p>Hi</p>" } });
  expect(res.status).toBe(202);
  await until(
    () => live.get(`/messages/${res.body.id}`),
    (r) => r.body.status === "sent",
  );
  const sesId = smtp.messages.find((m) => m.to.includes(email))!.queueId;
  return { id: res.body.id as string, email, sesId };
}

const suppressed = async (email: string) =>
  ((await live.get("/suppressions?limit=1000")).body as { email: string; reason: string; message_id: string }[]).find(
    (s) => s.email === email,
  );

describe("SES notifications through SNS", () => {
  it("a signed permanent bounce fails the message (smtp_550) and suppresses its address; its replay changes nothing", async () => {
    const { id, email, sesId } = await sentMessage();
    expect((await live.get(`/messages/${id}`)).body.provider_message_id).toBe(sesId);
    const notification = bounceNotification(sesId, email);
    const res = await post(notification);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message_id: id, applied: true });
    expect((await live.get(`/messages/${id}`)).body).toMatchObject({ status: "failed", error_code: "smtp_550" });
    expect(await suppressed(email)).toMatchObject({ reason: "hard_bounce", message_id: id });

    await live.request("DELETE", `/suppressions/${encodeURIComponent(email)}`);
    const again = await post(notification);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ignored: "this SNS message was already taken" });
    expect(await suppressed(email)).toBeUndefined();
  });

  it("a forged notification is refused with 401 and changes nothing", async () => {
    const { id, email, sesId } = await sentMessage();
    const forged = bounceNotification(sesId, email);
    forged.Message = forged.Message!.replace("Permanent", "Permanent ");
    const res = await post(forged);
    expect(res.status).toBe(401);
    expect((await live.get(`/messages/${id}`)).body.status).toBe("sent");
    expect(await suppressed(email)).toBeUndefined();
  });

  it("a certificate on another host is refused with 403; an unknown channel is 404", async () => {
    const { id, email, sesId } = await sentMessage();
    const res = await post({ ...bounceNotification(sesId, email), SigningCertURL: "https://evil.example/cert.pem" });
    expect(res.status).toBe(403);
    const unknown = await fetch(`${baseUrl}/api/providers/email/ses/ch_unknown`, {
      method: "POST",
      body: JSON.stringify(bounceNotification(sesId, email)),
    });
    expect(unknown.status).toBe(404);
    expect((await live.get(`/messages/${id}`)).body.status).toBe("sent");
  });
});
