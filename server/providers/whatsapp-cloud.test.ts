import { describe, expect, it } from "vitest";
import type { HttpAnswer } from "./http-post.ts";
import { retryAfterMs } from "./http-post.ts";
import { cloudApiPayload, mapCloudApiAnswer } from "./whatsapp-cloud.ts";

const answer = (status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer => ({
  status,
  headers,
  body: typeof body === "string" ? body : JSON.stringify(body),
});
const graphError = (code: number, message = "(#x) error", extra: Record<string, unknown> = {}) => ({
  error: { message, type: "OAuthException", code, fbtrace_id: "Abc", ...extra },
});

describe("cloudApiPayload", () => {
  const base = { messaging_product: "whatsapp", recipient_type: "individual", to: "5511987654321" };

  it("sends text without link previews, to the digits of the E.164 number", () => {
    expect(cloudApiPayload("+5511987654321", { body: "Hi Ana" })).toEqual({
      payload: { ...base, type: "text", text: { body: "Hi Ana", preview_url: false } },
    });
  });

  it("sends to a WhatsApp user id by `recipient`, without `to` (D88)", () => {
    const { to: _phone, ...byId } = base;
    expect(cloudApiPayload("US.13491208655302741918", { body: "Hi" })).toEqual({
      payload: { ...byId, recipient: "US.13491208655302741918", type: "text", text: { body: "Hi", preview_url: false } },
    });
  });

  it.each(["image", "video", "document"])("sends %s with a link and the body as caption", (type) => {
    expect(cloudApiPayload("+5511987654321", { body: "Look", media_url: "https://cdn.example.com/f", media_type: type })).toEqual({
      payload: { ...base, type, [type]: { link: "https://cdn.example.com/f", caption: "Look" } },
    });
  });

  it("sends audio without a caption, and media without a body without one", () => {
    expect(cloudApiPayload("+5511987654321", { body: "ignored", media_url: "https://cdn.example.com/a.ogg", media_type: "audio" })).toEqual(
      {
        payload: { ...base, type: "audio", audio: { link: "https://cdn.example.com/a.ogg" } },
      },
    );
    expect(cloudApiPayload("+5511987654321", { media_url: "https://cdn.example.com/i.png", media_type: "image" })).toEqual({
      payload: { ...base, type: "image", image: { link: "https://cdn.example.com/i.png" } },
    });
  });

  it("sends a template with its header and body parameters filled (D42)", () => {
    const content = {
      template: {
        name: "order_shipped",
        language: "en_US",
        parameter_format: "positional",
        parameters: [
          { name: "header_1", component: "header" as const, meta_name: "1", text: "#1042" },
          { name: "1", component: "body" as const, meta_name: "1", text: "Ana" },
        ],
      },
      body: "Hi Ana",
    };
    expect(cloudApiPayload("+5511987654321", content)).toEqual({
      payload: {
        ...base,
        type: "template",
        template: {
          name: "order_shipped",
          language: { code: "en_US" },
          components: [
            { type: "header", parameters: [{ type: "text", text: "#1042" }] },
            { type: "body", parameters: [{ type: "text", text: "Ana" }] },
          ],
        },
      },
    });
  });

  it("refuses what it cannot send", () => {
    expect(cloudApiPayload("+5511987654321", { subject: "s", html: "<p>x</p>" })).toHaveProperty("error");
    expect(cloudApiPayload("+5511987654321", {})).toHaveProperty("error");
    expect(cloudApiPayload("+5511987654321", { media_url: "https://x", media_type: "sticker" })).toHaveProperty("error");
    expect(cloudApiPayload("+123", { body: "x" })).toHaveProperty("error");
  });
});

describe("mapCloudApiAnswer", () => {
  const detail = { status_code: 0 };

  it("200 with messages[0].id is accepted, the wamid the provider id", () => {
    const ok = answer(200, { messaging_product: "whatsapp", contacts: [{ input: "1", wa_id: "1" }], messages: [{ id: "wamid.HBgN" }] });
    expect(mapCloudApiAnswer(ok, detail)).toEqual({ outcome: "accepted", providerMessageId: "wamid.HBgN", detail });
  });

  it("131062 (no sends by user id for this message) is permanent, as whatsapp_131062 (D88)", () => {
    expect(mapCloudApiAnswer(answer(400, graphError(131062, "(#131062) Not supported")), detail)).toMatchObject({
      outcome: "permanent",
      errorCode: "whatsapp_131062",
    });
  });

  it("200 without a message id is permanent (a retry could send twice)", () => {
    expect(mapCloudApiAnswer(answer(200, { ok: true }), detail)).toMatchObject({ outcome: "permanent" });
  });

  it("429 is temporary and honours Retry-After", () => {
    expect(mapCloudApiAnswer(answer(429, graphError(130429, "(#130429) Rate limit hit"), { "retry-after": "7" }), detail)).toEqual({
      outcome: "temporary",
      error: "(#130429) Rate limit hit (code 130429)",
      detail,
      retryAfterMs: 7000,
      errorCode: "130429", // D45
    });
  });

  // D90: 429 and 503 answered before the body was processed are retried; other 5xx are final.
  it.each([429, 503])("%i without a Graph code is temporary", (status) => {
    expect(mapCloudApiAnswer(answer(status, "upstream failure"), detail)).toMatchObject({
      outcome: "temporary",
      error: `HTTP ${status}: upstream failure`,
    });
  });

  it.each([500, 502])("%i is final", (status) => {
    expect(mapCloudApiAnswer(answer(status, "upstream failure"), detail)).toMatchObject({ outcome: "permanent" });
  });

  it.each([130429, 131056, 131057])("Graph refusal %i is temporary even on 400", (code) => {
    expect(mapCloudApiAnswer(answer(400, graphError(code)), detail)).toMatchObject({ outcome: "temporary", errorCode: String(code) });
  });

  it.each([4, 80007, 131000, 131048, 131050, 131042, 368])("Graph code %i is final, even on 503", (code) => {
    expect(mapCloudApiAnswer(answer(503, graphError(code)), detail)).toMatchObject({ outcome: "permanent", errorCode: String(code) });
  });

  it("other 4xx are permanent with the Graph message, code and details", () => {
    const invalid = graphError(131030, "(#131030) Recipient phone number not in allowed list", {
      error_subcode: 2494010,
      error_data: { messaging_product: "whatsapp", details: "Recipient phone number not in allowed list: add it" },
    });
    expect(mapCloudApiAnswer(answer(400, invalid), detail)).toEqual({
      outcome: "permanent",
      error:
        "(#131030) Recipient phone number not in allowed list (code 131030/2494010): Recipient phone number not in allowed list: add it",
      detail,
      errorCode: "131030", // D45
    });
    expect(mapCloudApiAnswer(answer(401, graphError(190, "Invalid OAuth access token.")), detail)).toMatchObject({
      outcome: "permanent",
      error: "Invalid OAuth access token. (code 190)",
    });
  });

  it("a redirect is not followed and is permanent", () => {
    expect(mapCloudApiAnswer(answer(301, "", { location: "http://elsewhere" }), detail)).toMatchObject({
      outcome: "permanent",
      error: /redirect/,
    });
  });
});

describe("retryAfterMs", () => {
  it("reads seconds and HTTP dates", () => {
    expect(retryAfterMs("30")).toBe(30_000);
    expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(10_000);
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs("soon")).toBeUndefined();
  });
});
