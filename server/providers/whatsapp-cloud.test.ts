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

  it.each([500, 502, 503])("%i is temporary", (status) => {
    expect(mapCloudApiAnswer(answer(status, "upstream failure"), detail)).toMatchObject({
      outcome: "temporary",
      error: `HTTP ${status}: upstream failure`,
    });
  });

  it.each([4, 80007, 130429, 131048, 131056])("Graph throttling code %i is temporary even on 400", (code) => {
    expect(mapCloudApiAnswer(answer(400, graphError(code)), detail)).toMatchObject({ outcome: "temporary" });
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
