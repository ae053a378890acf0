import { describe, expect, it } from "vitest";
import { transitionPath } from "./transitions.ts";

describe("message transitions (D8)", () => {
  it.each([
    ["queued", "sent", ["sent"]],
    ["sent", "delivered", ["delivered"]],
    ["delivered", "read", ["read"]],
    ["sent", "read", ["delivered", "read"]],
    ["queued", "delivered", ["sent", "delivered"]],
    ["queued", "failed", ["failed"]],
    ["sent", "failed", ["failed"]],
    ["queued", "canceled", ["canceled"]],
  ] as const)("%s + %s report → %j", (from, report, path) => {
    expect(transitionPath(from, report)).toEqual(path);
  });

  it.each([
    ["delivered", "failed"],
    ["read", "failed"],
    ["read", "delivered"],
    ["delivered", "sent"],
    ["failed", "sent"],
    ["failed", "read"],
    ["sent", "sent"],
    // D76: canceled only while queued, and final.
    ["sent", "canceled"],
    ["failed", "canceled"],
    ["canceled", "canceled"],
    ["canceled", "sent"],
    ["canceled", "failed"],
  ] as const)("%s ignores a %s report", (from, report) => {
    expect(transitionPath(from, report)).toEqual([]);
  });
});
