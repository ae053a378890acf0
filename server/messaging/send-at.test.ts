import { describe, expect, it } from "vitest";
import { SCHEDULE_GRACE_MS, SCHEDULE_MAX_MS, ZSendAt } from "./message-schemas.ts";

// D76: `send_at` is a timestamp with a time zone, from now to 30 days ahead.
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
const issue = (value: unknown) => {
  const parsed = ZSendAt.safeParse(value);
  return parsed.success ? null : parsed.error.issues[0]!.message;
};

describe("send_at", () => {
  it.each([
    ["an hour ahead", at(3_600_000)],
    ["29 days ahead", at(29 * 86_400_000)],
    ["a second ago (clock skew)", at(-1_000)],
    ["with an offset", `${new Date(Date.now() + 3_600_000 - 3 * 3_600_000).toISOString().slice(0, 19)}-03:00`],
  ])("accepts %s", (_, value) => {
    expect(issue(value)).toBeNull();
  });

  it.each([
    ["in the past", at(-SCHEDULE_GRACE_MS - 60_000), "is in the past"],
    ["beyond 30 days", at(SCHEDULE_MAX_MS + 60_000), "is more than 30 days ahead"],
    ["without a time zone", "2030-01-01T09:00:00", "must be an ISO 8601 timestamp"],
    ["a date alone", "2030-01-01", "must be an ISO 8601 timestamp"],
    ["words", "tomorrow", "must be an ISO 8601 timestamp"],
    ["an impossible date", "2030-02-31T09:00:00Z", "must be an ISO 8601 timestamp"],
  ])("refuses %s", (_, value, message) => {
    expect(issue(value)).toContain(message);
  });

  it("refuses a number", () => {
    expect(issue(1_900_000_000)).not.toBeNull();
  });
});
