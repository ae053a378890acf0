import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { validateRequest } from "twilio/lib/webhooks/webhooks.js";
import { verifyTwilioSignature } from "../../server/channels/sms/twilio-signature.ts";
import { sendTwilioSms, type TwilioAccount, type TwilioSms } from "../../server/providers/twilio-sms.ts";
import { startFakeTwilio, type FakeTwilio } from "../support/fake-twilio.ts";

// Twilio's Messages API client against a real local HTTP server speaking Twilio's formats
// (D94, D95; operations.md "Provider endpoints"), and the fake's callbacks as Twilio posts them.

let fake: FakeTwilio;
let account: TwilioAccount;
const callback = "https://svc.example.com/api/providers/sms/twilio/ch_4kq9xv2m8b";
const sms: TwilioSms = { to: "+5511987654321", body: "Olá Ana, your code is 123 456 & more", statusCallback: callback };

beforeAll(async () => {
  fake = await startFakeTwilio();
  account = { accountSid: fake.accountSid, authToken: fake.authToken, sender: { from: "+15017122661" }, apiBaseUrl: fake.url };
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe("a send", () => {
  it("posts the form to Messages.json with Basic auth and returns Twilio's sid", async () => {
    const result = await sendTwilioSms(account, sms);
    expect(result.outcome).toBe("accepted");
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: "POST", path: `/2010-04-01/Accounts/${fake.accountSid}/Messages.json` });
    const basic = Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString("base64");
    expect(req!.headers.authorization).toBe(`Basic ${basic}`);
    expect(req!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    // Exactly these fields, form-encoded as Twilio's SDKs encode them (spaces as +, UTF-8 escaped).
    expect(req!.raw).toBe(
      "To=%2B5511987654321&From=%2B15017122661&Body=Ol%C3%A1+Ana%2C+your+code+is+123+456+%26+more" +
        "&StatusCallback=https%3A%2F%2Fsvc.example.com%2Fapi%2Fproviders%2Fsms%2Ftwilio%2Fch_4kq9xv2m8b",
    );
    expect(req!.form).toEqual({ To: sms.to, From: "+15017122661", Body: sms.body, StatusCallback: callback });
    if (result.outcome !== "accepted") throw new Error("not accepted");
    expect(result.providerMessageId).toBe(req!.sid);
    expect(result.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(result.detail).toMatchObject({ status_code: 201, request_id: expect.stringMatching(/^RQ/) });
    expect(result.detail.excerpt).toBe(JSON.stringify(req!.answer).slice(0, 500));
    expect(req!.answer).toMatchObject({ sid: req!.sid, from: "+15017122661", status: "queued", num_segments: "1" });
  });

  it("sends through a Messaging Service instead of a number", async () => {
    const result = await sendTwilioSms({ ...account, sender: { messagingServiceSid: "MG9752274e9e519418a7406176694466fa" } }, sms);
    expect(result.outcome).toBe("accepted");
    expect(fake.requests[0]!.form).toEqual({
      To: sms.to,
      MessagingServiceSid: "MG9752274e9e519418a7406176694466fa",
      Body: sms.body,
      StatusCallback: callback,
    });
    expect(fake.requests[0]!.answer).toMatchObject({
      status: "accepted",
      from: null,
      messaging_service_sid: "MG9752274e9e519418a7406176694466fa",
    });
  });
});

describe("refusals (D95: sms_<code>; only 429 and 503 retried)", () => {
  it("21610, a recipient who opted out, is final", async () => {
    fake.optedOut.add(sms.to);
    const result = await sendTwilioSms(account, sms);
    expect(result).toMatchObject({ outcome: "permanent", errorCode: "sms_21610", detail: { status_code: 400 } });
    if (result.outcome !== "permanent") throw new Error("not permanent");
    expect(result.error).toBe("Attempt to send to unsubscribed recipient (code 21610)");
  });

  it("a 429 may be retried, after Retry-After", async () => {
    fake.setMode({ kind: "error", code: 20429, retryAfter: 3 }, { times: 1 });
    const result = await sendTwilioSms(account, sms);
    expect(result).toMatchObject({ outcome: "temporary", errorCode: "sms_20429", retryAfterMs: 3000, detail: { status_code: 429 } });
    // The next send goes through: the refusal created nothing.
    expect((await sendTwilioSms(account, sms)).outcome).toBe("accepted");
    expect(fake.requests.filter((r) => r.sid)).toHaveLength(1);
  });

  it("a 503 may be retried", async () => {
    fake.setMode({ kind: "error", code: 20503 }, { times: 1 });
    expect(await sendTwilioSms(account, sms)).toMatchObject({ outcome: "temporary", errorCode: "sms_20503" });
  });

  it("a 400 is final: an invalid number (21211), as Twilio itself checks it", async () => {
    const result = await sendTwilioSms(account, { ...sms, to: "5511987654321" });
    expect(result).toMatchObject({ outcome: "permanent", errorCode: "sms_21211", detail: { status_code: 400 } });
    if (result.outcome !== "permanent") throw new Error("not permanent");
    expect(result.error).toBe("Invalid 'To' Phone Number: 5511987654321 (code 21211)");
  });

  it.each([21408, 21614] as const)("%i is final", async (code) => {
    fake.setMode({ kind: "error", code }, { times: 1 });
    expect(await sendTwilioSms(account, sms)).toMatchObject({ outcome: "permanent", errorCode: `sms_${code}` });
  });

  it("a wrong auth token is final (20003)", async () => {
    const result = await sendTwilioSms({ ...account, authToken: "not-the-token" }, sms);
    expect(result).toMatchObject({ outcome: "permanent", errorCode: "sms_20003", detail: { status_code: 401 } });
  });

  it("a 500 is final: Twilio may have created the message (D47)", async () => {
    fake.setMode({ kind: "status", status: 500, body: "oops" }, { times: 1 });
    const result = await sendTwilioSms(account, sms);
    expect(result).toMatchObject({ outcome: "permanent", error: "HTTP 500: oops" });
    expect(result).not.toHaveProperty("errorCode");
  });

  it("a 2xx without a sid is final, never resent", async () => {
    fake.setMode({ kind: "status", status: 201, body: { status: "queued" } }, { times: 1 });
    expect(await sendTwilioSms(account, sms)).toMatchObject({ outcome: "permanent", error: "Twilio answered 201 without a message sid." });
  });

  it("a redirect is final and not followed", async () => {
    fake.setMode({ kind: "status", status: 302, headers: { location: "https://elsewhere.example.com/" } }, { times: 1 });
    const result = await sendTwilioSms(account, sms);
    expect(result).toMatchObject({ outcome: "permanent", detail: { status_code: 302 } });
    expect(fake.requests).toHaveLength(1);
  });

  it("a connection closed before the answer leaves the outcome unknown (D47)", async () => {
    fake.setMode({ kind: "drop" }, { times: 1 });
    expect(await sendTwilioSms(account, sms)).toMatchObject({ outcome: "unknown" });
  });

  it("no answer within 15 s leaves the outcome unknown (D47)", async () => {
    fake.setMode({ kind: "hang" }, { times: 1 });
    const result = await sendTwilioSms(account, sms);
    expect(result).toMatchObject({ outcome: "unknown", error: expect.stringContaining("did not answer within 15 s") });
  });

  it("a refused connection may be retried: the request never left", async () => {
    const closed = await startFakeTwilio();
    const base = closed.url;
    await closed.close();
    expect(await sendTwilioSms({ ...account, apiBaseUrl: base }, sms)).toMatchObject({ outcome: "temporary" });
  });
});

describe("callbacks the fake posts as Twilio does", () => {
  let receiver: Server;
  let receiverUrl: string;
  const received: { url: string; headers: IncomingHttpHeaders; form: URLSearchParams }[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({
          url: `${receiverUrl}${req.url}`,
          headers: req.headers,
          form: new URLSearchParams(Buffer.concat(chunks).toString()),
        });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  beforeEach(() => {
    received.length = 0;
  });

  const signatureOf = (r: (typeof received)[number]) => r.headers["x-twilio-signature"] as string | undefined;

  it("posts a status callback to the message's StatusCallback, signed as Twilio's SDK checks it", async () => {
    const statusCallback = `${receiverUrl}/api/providers/sms/twilio/ch_4kq9xv2m8b?x=1`;
    const sent = await sendTwilioSms(account, { ...sms, statusCallback });
    if (sent.outcome !== "accepted") throw new Error("not accepted");
    expect((await fake.postStatus(sent.providerMessageId, "undelivered", { errorCode: 30003 })).status).toBe(200);
    const [r] = received;
    expect(r!.url).toBe(statusCallback);
    expect(r!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(r!.form)).toEqual({
      SmsSid: sent.providerMessageId,
      SmsStatus: "undelivered",
      MessageStatus: "undelivered",
      To: sms.to,
      MessageSid: sent.providerMessageId,
      AccountSid: fake.accountSid,
      From: "+15017122661",
      ApiVersion: "2010-04-01",
      ErrorCode: "30003",
    });
    expect(verifyTwilioSignature(fake.authToken, signatureOf(r!), statusCallback, r!.form)).toBe(true);
    expect(validateRequest(fake.authToken, signatureOf(r!)!, statusCallback, Object.fromEntries(r!.form))).toBe(true);
  });

  it("posts an inbound message signed likewise; unsigned or signed with another token when asked", async () => {
    const url = `${receiverUrl}/api/providers/sms/twilio/ch_4kq9xv2m8b`;
    await fake.postInbound(url, { from: "+5511987654321", to: "+15017122661", body: "STOP" });
    await fake.postInbound(url, { from: "+5511987654321", to: "+15017122661", body: "Oi 😀" }, { signWith: null });
    await fake.postInbound(url, { from: "+5511987654321", to: "+15017122661", body: "START" }, { signWith: "forged" });
    const [signed, unsigned, forged] = received;
    expect(signed!.form.get("Body")).toBe("STOP");
    expect(signed!.form.get("SmsStatus")).toBe("received");
    expect(signed!.form.get("MessageSid")).toMatch(/^SM[0-9a-f]{32}$/);
    expect(unsigned!.form.get("NumSegments")).toBe("1");
    expect(validateRequest(fake.authToken, signatureOf(signed!)!, url, Object.fromEntries(signed!.form))).toBe(true);
    expect(signatureOf(unsigned!)).toBeUndefined();
    expect(verifyTwilioSignature(fake.authToken, signatureOf(forged!), url, forged!.form)).toBe(false);
    expect(validateRequest(fake.authToken, signatureOf(forged!)!, url, Object.fromEntries(forged!.form))).toBe(false);
  });
});
