import { describe, expect, it } from "vitest";
import { ChannelType } from "../generated/prisma/enums.ts";
import { invalid } from "../lib/errors.ts";
import { CHANNELS, channelOf } from "./registry.ts";

// Issue 49: one module per channel type, registered under its own type. `tsc` checks that every
// type has a module with every part (registry.ts); this checks what it cannot: that each module
// sits under the key of its own type, and the parts the send path reads behave as before.

describe("channel registry", () => {
  it("holds exactly the schema's channel types, each module under its own type", () => {
    expect(Object.keys(CHANNELS).sort()).toEqual(Object.values(ChannelType).sort());
    for (const [key, channel] of Object.entries(CHANNELS)) expect(channel.type).toBe(key);
  });

  it("addresses WhatsApp at the phone, else the WhatsApp user id (D88), and e-mail at the address", () => {
    const contact = { phone: null, email: "ana@example.com", whatsapp_user_id: "BR.1234" };
    expect(channelOf("whatsapp").addressOf(contact)).toBe("BR.1234");
    expect(channelOf("whatsapp").addressOf({ ...contact, phone: "+5511987654321" })).toBe("+5511987654321");
    expect(channelOf("email").addressOf(contact)).toBe("ana@example.com");
    const optedOut = { opt_out_whatsapp: true, opt_out_email: false, opt_out_sms: false };
    expect([channelOf("whatsapp").optedOut(optedOut), channelOf("email").optedOut(optedOut)]).toEqual([true, false]);
  });

  it("renders each channel's own texts with its limits (D17, D48)", () => {
    const seen: { text: string; param?: string; html?: boolean }[] = [];
    const fill = (text: string, o?: { limit?: { param: string }; html?: boolean }) => {
      seen.push({ text, param: o?.limit?.param, html: o?.html });
      return text.toUpperCase();
    };
    expect(channelOf("whatsapp").render({ body: "hi", media_url: "https://x.test/a.png", media_type: "image" }, fill)).toEqual({
      body: "HI",
      media_url: "https://x.test/a.png",
      media_type: "image",
    });
    expect(channelOf("email").render({ subject: "s", html: "<p>h</p>", reply_to: "Ana@Example.com" }, fill)).toEqual({
      subject: "S",
      html: "<P>H</P>",
      reply_to: "Ana@example.com", // the domain lowercased, the local part kept
    });
    expect(seen).toEqual([
      { text: "hi", param: "whatsapp.body", html: undefined },
      { text: "s", param: "email.subject", html: undefined },
      { text: "<p>h</p>", param: "email.html", html: true },
    ]);
  });

  it("checks each channel's content (D16, D42, D43)", () => {
    const issues = (type: ChannelType, fields: object) => {
      const found: string[] = [];
      channelOf(type).checkContent(fields, (path) => found.push(path.join(".")));
      return found;
    };
    expect(issues("whatsapp", {})).toEqual(["whatsapp.body"]);
    expect(issues("whatsapp", { media_url: "https://x.test/a.png" })).toEqual(["whatsapp.media_type"]);
    expect(issues("whatsapp", { body: "hi", template: { name: "t", language: "en" } })).toEqual(["whatsapp.template"]);
    expect(issues("whatsapp", { body: "hi", fallback: "template" })).toEqual(["whatsapp.fallback"]);
    expect(issues("whatsapp", { body: "hi", template: { name: "t", language: "en" }, fallback: "template" })).toEqual([]);
    expect(issues("email", {})).toEqual(["email.html"]);
    expect(issues("email", { html: "<p>h</p>" })).toEqual([]);
  });

  it("refuses a template in an e-mail channel's test message", async () => {
    const refused = channelOf("email").testMessage(
      null as never,
      { id: "ch", workspaceId: "ws" },
      {
        to: "ana@example.com",
        template: { name: "t", language: "en" },
      },
    );
    await expect(refused).rejects.toMatchObject({ code: invalid("unknown_parameter", "", "template").code, param: "template" });
  });
});
