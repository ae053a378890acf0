import { describe, expect, it } from "vitest";
import { normalizePhone } from "./phone.ts";

describe("normalizePhone (D1)", () => {
  it.each([
    ["+55 11 98765-4321", null, "+5511987654321"],
    ["(11) 98765.4321", "BR", "+5511987654321"],
    ["+1 (415) 555-2671", "BR", "+14155552671"],
    ["415-555-2671", "US", "+14155552671"],
    ["+15550100001", null, "+15550100001"],
  ])("%s with default %s is %s", (input, country, expected) => {
    expect(normalizePhone(input, country, "phone")).toBe(expected);
  });

  it.each([
    ["11987654321", null, /no country code/],
    ["+55 11 98765-432a", "BR", /may only hold/],
    ["+55 11 123", "BR", /not a valid/],
    ["", "BR", /may only hold/],
  ])("refuses %s (default %s)", (input, country, message) => {
    expect(() => normalizePhone(input, country, "to.phone")).toThrow(message);
    try {
      normalizePhone(input, country, "to.phone");
    } catch (err) {
      expect(err).toMatchObject({ type: "invalid_request", param: "to.phone" });
    }
  });
});
