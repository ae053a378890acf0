import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isStopWord, parseWebhook, statusReport, verifySignature } from "./whatsapp-webhook.ts";

const APP_SECRET = "meta-app-secret";
const sign = (raw: string, secret = APP_SECRET) => `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;

function webhook(value: Record<string, unknown>, phoneNumberId = "106540352242922") {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  });
}

describe("verifySignature (X-Hub-Signature-256)", () => {
  const raw = webhook({ statuses: [] });

  it("accepts the HMAC-SHA256 of the raw body keyed with the app secret", () => {
    expect(verifySignature(raw, sign(raw), APP_SECRET)).toBe(true);
    expect(verifySignature(Buffer.from(raw), sign(raw).toUpperCase().replace("SHA256=", "sha256="), APP_SECRET)).toBe(true);
  });

  it("refuses a wrong signature, another secret, or a changed body", () => {
    expect(verifySignature(raw, sign(raw, "other-secret"), APP_SECRET)).toBe(false);
    expect(verifySignature(`${raw} `, sign(raw), APP_SECRET)).toBe(false);
    expect(
      verifySignature(
        raw,
        sign(raw).replace(/.$/, (c) => (c === "0" ? "1" : "0")),
        APP_SECRET,
      ),
    ).toBe(false);
  });

  it("refuses a missing or malformed header, and an empty secret", () => {
    expect(verifySignature(raw, null, APP_SECRET)).toBe(false);
    expect(verifySignature(raw, "", APP_SECRET)).toBe(false);
    expect(verifySignature(raw, sign(raw).replace("sha256=", "sha1="), APP_SECRET)).toBe(false);
    expect(verifySignature(raw, sign(raw).slice(0, -2), APP_SECRET)).toBe(false);
    expect(verifySignature(raw, sign(raw, ""), "")).toBe(false);
  });
});

describe("parseWebhook", () => {
  it("reads status reports with their phone number id, tolerating unknown fields", () => {
    const raw = webhook({
      statuses: [
        {
          id: "wamid.A",
          status: "delivered",
          timestamp: "1763712000",
          recipient_id: "5511987654321",
          conversation: { id: "c1", origin: { type: "utility" } },
          pricing: { billable: true },
          brand_new_field: { x: 1 },
        },
      ],
    });
    const changes = parseWebhook(raw);
    expect(changes).toHaveLength(1);
    expect(changes![0]!.phoneNumberId).toBe("106540352242922");
    const [item] = changes![0]!.statuses;
    expect(item).toMatchObject({ id: "wamid.A", status: "delivered", timestamp: 1763712000 });
    expect(item!.raw).toMatchObject({ brand_new_field: { x: 1 } });
    expect(statusReport(item!)).toEqual({
      status: "delivered",
      // D47: a message whose send got no answer learns its wamid from its report.
      providerMessageId: "wamid.A",
      at: new Date(1763712000 * 1000),
      kind: "provider_report",
      detail: item!.raw,
    });
  });

  it("keeps a report's pricing as Meta's 2026 JSON carries it, category and type as they come (D89)", () => {
    const raw = webhook({
      statuses: [
        {
          id: "wamid.P",
          status: "sent",
          timestamp: "1763712000",
          recipient_id: "5511987654321",
          pricing: { billable: false, pricing_model: "PMP", type: "free_entry_point", category: "referral_conversion" },
        },
      ],
    });
    const item = parseWebhook(raw)![0]!.statuses[0]!;
    expect(statusReport(item).pricing).toEqual({ category: "referral_conversion", type: "free_entry_point" });
  });

  it("turns a failed status's first error into the report's error", () => {
    const raw = webhook({
      statuses: [
        {
          id: "wamid.B",
          status: "failed",
          timestamp: 1763712001,
          errors: [
            {
              code: 131026,
              title: "Message undeliverable",
              message: "Message undeliverable",
              error_data: { details: "Recipient is not on WhatsApp" },
            },
          ],
        },
      ],
    });
    const item = parseWebhook(raw)![0]!.statuses[0]!;
    expect(statusReport(item)).toMatchObject({
      status: "failed",
      at: new Date(1763712001 * 1000),
      error: "Message undeliverable (code 131026): Recipient is not on WhatsApp",
    });
  });

  it("skips items it does not handle and keeps the others", () => {
    const raw = webhook({
      statuses: [
        { id: "wamid.C", status: "deleted", timestamp: "1" },
        { status: "read", timestamp: "1" },
        { id: "wamid.D", status: "read", timestamp: "1763712002" },
      ],
      messages: [
        { from: "5511987654321", id: "wamid.in1", timestamp: "1", type: "image", image: { id: "m1" } },
        { from: "5511987654321", id: "wamid.in2", timestamp: "1", type: "text", text: { body: "hello" } },
      ],
    });
    const [change] = parseWebhook(raw)!;
    expect(change!.statuses.map((s) => s.id)).toEqual(["wamid.D"]);
    expect(change!.stopFrom).toEqual([]);
  });

  it("collects the senders of stop words as E.164", () => {
    const raw = webhook({
      contacts: [{ profile: { name: "Ana" }, wa_id: "5511987654321" }],
      messages: [
        { from: "5511987654321", id: "wamid.in1", timestamp: "1", type: "text", text: { body: "  Parar " } },
        { from: "5521999998888", id: "wamid.in2", timestamp: "1", type: "text", text: { body: "stop please" } },
      ],
    });
    expect(parseWebhook(raw)![0]!.stopFrom).toEqual([{ phone: "+5511987654321", userId: null }]);
  });

  // D88, Meta's example as providers-2026.md quotes it: the phone withheld.
  it("reads a sender known only by user id, with its username and parent id", () => {
    const raw = webhook({
      contacts: [
        {
          profile: { name: "Sheena Nelson", username: "@realsheenanelson" },
          user_id: "US.13491208655302741918",
          parent_user_id: "US.11815799212886844830",
        },
      ],
      messages: [
        {
          from_user_id: "US.13491208655302741918",
          from_parent_user_id: "US.11815799212886844830",
          id: "wamid.in1",
          timestamp: "1749416383",
          type: "text",
          text: { body: "stop" },
        },
      ],
    });
    const [change] = parseWebhook(raw)!;
    expect(change!.inbound[0]).toMatchObject({
      from: null,
      userId: "US.13491208655302741918",
      username: "@realsheenanelson",
      parentUserId: "US.11815799212886844830",
      profileName: "Sheena Nelson",
    });
    expect(change!.stopFrom).toEqual([{ phone: null, userId: "US.13491208655302741918" }]);
  });

  it.each(["parent_user_id", "parent_recipient_user_id", "recipient_parent_user_id"])("takes the parent id spelled %s", (key) => {
    const raw = webhook({
      contacts: [{ profile: { name: "A" }, user_id: "US.1", [key]: "US.2" }],
      messages: [{ from_user_id: "US.1", id: "wamid.p", timestamp: "1", type: "text", text: { body: "hi" } }],
    });
    expect(parseWebhook(raw)![0]!.inbound[0]).toMatchObject({ userId: "US.1", parentUserId: "US.2" });
  });

  it("skips a message with neither a phone nor a user id, and reads user_changed_user_id as a move, not a message", () => {
    const raw = webhook({
      messages: [
        { id: "wamid.x", timestamp: "1", type: "text", text: { body: "who?" } },
        {
          from_user_id: "US.1",
          id: "wamid.s",
          timestamp: "1",
          type: "system",
          system: { body: "changed", user_id: "US.3", type: "user_changed_user_id" },
        },
      ],
    });
    const [change] = parseWebhook(raw)!;
    expect(change!.inbound).toEqual([]);
    expect(change!.userIdChanges).toEqual([{ from: null, userId: "US.1", newUserId: "US.3" }]);
  });

  it("ignores changes without a phone number id (other webhook fields)", () => {
    const raw = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: "1", changes: [{ field: "account_update", value: { event: "X" } }] }],
    });
    expect(parseWebhook(raw)).toEqual([]);
  });

  it("refuses what is not the Cloud API's JSON", () => {
    expect(parseWebhook("not json")).toBeNull();
    expect(parseWebhook(JSON.stringify({ entry: "x" }))).toBeNull();
    expect(parseWebhook("[]")).toBeNull();
  });
});

describe("isStopWord", () => {
  it.each(["STOP", "stop", " Stop ", "PARAR", "parar", "Sair", "CANCELAR", "cancelar\n", "Unsubscribe"])("%j is a stop word", (text) => {
    expect(isStopWord(text)).toBe(true);
  });

  it.each(["", "stop it", "pare", "STOPP", "sair agora", "hello"])("%j is not", (text) => {
    expect(isStopWord(text)).toBe(false);
  });
});
