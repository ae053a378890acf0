import { describe, expect, it } from "vitest";
// Twilio's own Node SDK (MIT, a devDependency for this test only): its validateRequest is the
// reference our verification must agree with.
import { getExpectedTwilioSignature, validateRequest } from "twilio/lib/webhooks/webhooks.js";
import { twilioSignature, verifyTwilioSignature } from "./twilio-signature.ts";

// D95: X-Twilio-Signature, computed and verified.

const token = "12345";
const url = "https://mycompany.com/myapp.php?foo=1&bar=2";
const params = { CallSid: "CA1234567890ABCDE", Caller: "+14158675309", Digits: "1234", From: "+14158675309", To: "+18005551212" };

/** A status callback as Twilio posts it for an sms (form fields in the order it sends them). */
const statusCallback = new URLSearchParams([
  ["SmsSid", "SM5b4a8e2b8e6c4d61a3d1f0a9c8b7e6d5"],
  ["SmsStatus", "delivered"],
  ["MessageStatus", "delivered"],
  ["To", "+5511987654321"],
  ["MessagingServiceSid", "MG9752274e9e519418a7406176694466fa"],
  ["MessageSid", "SM5b4a8e2b8e6c4d61a3d1f0a9c8b7e6d5"],
  ["AccountSid", "AC3f1e0d2c4b5a69788796a5b4c3d2e1f0"],
  ["From", "+15017122661"],
  ["ApiVersion", "2010-04-01"],
]);
const callbackUrl = "https://svc.example.com/api/providers/sms/twilio/ch_4kq9xv2m8b";
const authToken = "f3a1c9e07b2d4e5fa6b7c8d9e0f1a2b3";

describe("twilioSignature", () => {
  it("gives the signature of Twilio's own worked example", () => {
    // The SDK's test vector: the URL with its query string, then CallSid…To sorted by name.
    expect(twilioSignature(token, url, Object.entries(params))).toBe("RSOYDt4T1cUTdK1PDd93/VVr8B8=");
    expect(getExpectedTwilioSignature(token, url, params)).toBe("RSOYDt4T1cUTdK1PDd93/VVr8B8=");
  });

  it("agrees with Twilio's SDK on an sms status callback and an inbound message", () => {
    const inbound = new URLSearchParams({
      ToCountry: "US",
      SmsMessageSid: "SM1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c",
      NumMedia: "0",
      Body: "Olá! STOP? ção & 😀 = ok+1",
      From: "+5511987654321",
      To: "+15017122661",
      NumSegments: "1",
      MessageSid: "SM1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c",
      AccountSid: "AC3f1e0d2c4b5a69788796a5b4c3d2e1f0",
      ApiVersion: "2010-04-01",
    });
    for (const form of [statusCallback, inbound]) {
      const ours = twilioSignature(authToken, callbackUrl, form);
      expect(ours).toBe(getExpectedTwilioSignature(authToken, callbackUrl, Object.fromEntries(form)));
      expect(validateRequest(authToken, ours, callbackUrl, Object.fromEntries(form))).toBe(true);
    }
  });

  it("does not depend on the order the fields were posted in", () => {
    const reversed = new URLSearchParams([...statusCallback].reverse());
    expect(twilioSignature(authToken, callbackUrl, reversed)).toBe(twilioSignature(authToken, callbackUrl, statusCallback));
  });

  it("signs the URL alone when nothing was posted", () => {
    expect(twilioSignature(authToken, callbackUrl, [])).toBe(getExpectedTwilioSignature(authToken, callbackUrl, {}));
  });
});

describe("verifyTwilioSignature", () => {
  const signed = twilioSignature(authToken, callbackUrl, statusCallback);

  it("accepts Twilio's signature", () => {
    expect(verifyTwilioSignature(authToken, signed, callbackUrl, statusCallback)).toBe(true);
    expect(verifyTwilioSignature(token, "RSOYDt4T1cUTdK1PDd93/VVr8B8=", url, Object.entries(params))).toBe(true);
  });

  it("refuses a missing, empty or truncated signature", () => {
    expect(verifyTwilioSignature(authToken, undefined, callbackUrl, statusCallback)).toBe(false);
    expect(verifyTwilioSignature(authToken, "", callbackUrl, statusCallback)).toBe(false);
    expect(verifyTwilioSignature(authToken, signed.slice(0, -1), callbackUrl, statusCallback)).toBe(false);
  });

  it("refuses another token, another URL, a changed, added or removed field", () => {
    const changed = new URLSearchParams(statusCallback);
    changed.set("MessageStatus", "failed");
    const added = new URLSearchParams(statusCallback);
    added.append("ErrorCode", "30003");
    const removed = new URLSearchParams(statusCallback);
    removed.delete("To");
    expect(verifyTwilioSignature("another-token", signed, callbackUrl, statusCallback)).toBe(false);
    expect(verifyTwilioSignature(authToken, signed, `${callbackUrl}?x=1`, statusCallback)).toBe(false);
    expect(verifyTwilioSignature(authToken, signed, callbackUrl.replace("ch_4kq9xv2m8b", "ch_other"), statusCallback)).toBe(false);
    for (const form of [changed, added, removed]) expect(verifyTwilioSignature(authToken, signed, callbackUrl, form)).toBe(false);
  });

  it("refuses a signature Twilio's SDK refuses, for a forged one of the right length", () => {
    const forged = Buffer.from(signed, "base64");
    forged[0] = forged[0]! ^ 1;
    const text = forged.toString("base64");
    expect(verifyTwilioSignature(authToken, text, callbackUrl, statusCallback)).toBe(false);
    expect(validateRequest(authToken, text, callbackUrl, Object.fromEntries(statusCallback))).toBe(false);
  });
});
