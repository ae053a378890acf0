import { describe, expect, it } from "vitest";
import { checkFieldValue } from "./field-values.ts";

describe("custom-field values (D14)", () => {
  it.each([
    ["number", 3.5],
    ["number", -2],
    ["boolean", false],
    ["date", "2024-02-29"],
    ["text", "hello"],
  ] as const)("accepts a %s %s", (type, value) => {
    expect(checkFieldValue("k", type, value)).toBe(value);
  });

  it.each([
    ["number", "3"],
    ["number", null],
    ["boolean", "true"],
    ["date", "2023-02-29"],
    ["date", "2024-2-1"],
    ["date", 20240101],
    ["text", 12],
  ] as const)("refuses a %s %j with param fields.k", (type, value) => {
    expect(() => checkFieldValue("k", type, value)).toThrow(expect.objectContaining({ param: "fields.k", type: "invalid_request" }));
  });
});
