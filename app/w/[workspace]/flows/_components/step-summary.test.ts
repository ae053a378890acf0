import { describe, expect, it } from "vitest";
import { splitShares, stepSummary } from "./step-summary.ts";

describe("a step in a few words", () => {
  it("names what each step does", () => {
    const tags = [{ id: "tag_vip", name: "VIP" }];
    expect(stepSummary({ type: "send", channel: "whatsapp", whatsapp: { template: { name: "order_update", language: "en_US" } } })).toBe(
      "Send WhatsApp: template order_update",
    );
    expect(stepSummary({ type: "send", channel: "whatsapp", whatsapp: { body: "Hello {{name}}" } })).toBe(
      "Send WhatsApp: “Hello {{name}}”",
    );
    expect(stepSummary({ type: "send", channel: "whatsapp", whatsapp: { body: "" } })).toBe("Send WhatsApp: no message yet");
    expect(stepSummary({ type: "send", channel: "sms", sms: { body: "Your code is {{code}}" } })).toBe("Send SMS: “Your code is {{code}}”");
    expect(stepSummary({ type: "send", channel: "sms", sms: { body: "" } })).toBe("Send SMS: no message yet");
    expect(stepSummary({ type: "branch", if: { opted_out: "sms" }, then: [], else: [] })).toBe("If opted out of SMS");
    expect(stepSummary({ type: "send", channel: "email", email: { subject: "Welcome", html: "<p>Hi</p>" } })).toBe(
      "Send e-mail: “Welcome”",
    );
    expect(stepSummary({ type: "wait", duration: "P2D" })).toBe("Wait 2 days");
    expect(stepSummary({ type: "wait", until: "2026-12-01T09:00:00Z" })).toBe("Wait until 2026-12-01 09:00 UTC");
    expect(
      stepSummary({
        type: "split",
        paths: [
          { weight: 1, steps: [] },
          { weight: 1, steps: [] },
        ],
      }),
    ).toBe("Split 50/50");
    expect(stepSummary({ type: "branch", if: { has_tag: "tag_vip" }, then: [], else: [] }, { tags })).toBe("If tagged VIP");
    expect(stepSummary({ type: "branch", if: { field: "plan", equals: "pro" }, then: [], else: [] })).toBe("If plan is “pro”");
    expect(stepSummary({ type: "wait_for", event: "order_paid", timeout: "P1D", on_event: [], on_timeout: [] })).toBe(
      "Wait for order_paid, at most 1 day",
    );
    expect(stepSummary({ type: "tag", add: ["tag_vip"], remove: ["tag_x"] }, { tags })).toBe("Add tag VIP; Remove tag tag_x");
    expect(stepSummary({ type: "set_field", key: "stage", value: "onboarded" })).toBe("Set stage to “onboarded”");
    expect(stepSummary({ type: "exit" })).toBe("Exit");
  });

  it("gives a split's shares of the weights that are valid so far (D68), a weight being typed counting as none", () => {
    const w = (...weights: number[]) => weights.map((weight) => ({ weight }));
    expect(splitShares(w(50, 25, 25))).toEqual([50, 25, 25]);
    expect(splitShares(w(50, 0, 25))).toEqual([67, 0, 33]);
    expect(splitShares(w(2.5, Number.NaN, 1))).toEqual([0, 0, 100]);
    expect(splitShares(w(0, 0))).toEqual([0, 0]);
  });
});
