import { describe, expect, it } from "vitest";
import { historyLabel, waitKind, type Entry } from "./run-history-words.ts";

const entry = (kind: string, detail: Record<string, string | number> = {}): Entry => ({
  at: "2026-11-27T10:00:00.000Z",
  kind,
  position: [1],
  detail,
});

describe("a run's history read for the dashboard (D63, D82)", () => {
  it("tells what a wait waited for by its step when the run follows the flow's current version", () => {
    const waitFor = { type: "wait_for" as const, timeout: "P1D", on_event: [], on_timeout: [] };
    // An event named like a message outcome is the event when the step says so.
    expect(waitKind("read", { ...waitFor, event: "read", match: { a: "b" } })).toEqual({ kind: "event", event: "read", match: { a: "b" } });
    expect(waitKind("read", { ...waitFor, message: "read" })).toEqual({ kind: "message", outcome: "read" });
    expect(waitKind("PT5M", { type: "wait", duration: "PT5M" })).toEqual({ kind: "duration", duration: "PT5M" });
    expect(waitKind("2026-12-01T00:00:00Z", { type: "wait", until: "2026-12-01T00:00:00Z" })).toEqual({ kind: "until" });
  });

  it("tells it by its form on another version: a duration, a time, a message outcome, else an event", () => {
    expect(waitKind("P1D", undefined)).toEqual({ kind: "duration", duration: "P1D" });
    expect(waitKind("2026-12-01T00:00:00.000Z", undefined)).toEqual({ kind: "until" });
    expect(waitKind(undefined, undefined)).toEqual({ kind: "until" });
    expect(waitKind("replied", undefined)).toEqual({ kind: "message", outcome: "replied" });
    expect(waitKind("order_paid", undefined)).toEqual({ kind: "event", event: "order_paid" });
  });

  it("names each stored kind in a word", () => {
    expect(historyLabel(entry("enrolled", { version: 1 }))).toBe("Entered");
    expect(historyLabel(entry("step", { type: "send" }))).toBe("Sent");
    expect(historyLabel(entry("step", { type: "branch", took: "then" }))).toBe("Branch");
    expect(historyLabel(entry("woke", { by: "timeout" }))).toBe("Woke");
    expect(historyLabel(entry("path", { type: "wait_for", path: "on_timeout" }))).toBe("Path");
    expect(historyLabel(entry("converted", { event_id: "cev_1" }))).toBe("Converted");
    expect(historyLabel(entry("completed", { reason: "goal_reached" }))).toBe("Completed");
    expect(historyLabel(entry("held", {}))).toBe("held");
  });
});
