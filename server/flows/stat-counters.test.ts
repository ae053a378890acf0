import { describe, expect, it } from "vitest";
import { historyCounters, runCounters } from "./stat-counters.ts";

// D69: what runs and history entries count, as the writers add it (stat-counters.ts).
const run = { workspace_id: "ws_1", flow_id: "flow_1", mode: "live", version: 3 };
const metrics = (counters: { path: string; metric: string; n: number }[]) => counters.map((c) => `${c.path}|${c.metric}|${c.n}`);

describe("runCounters", () => {
  it("counts an active run's status flow-wide and its place as waiting", () => {
    expect(metrics(runCounters({ ...run, status: "active", converted: false, place: [2, "then", 0] }, 1))).toEqual([
      "|runs:active|1",
      "steps.2.then.0|waiting|1",
    ]);
  });
  it("counts a conversion, a stopped run's place, and nothing at a place for a completed run", () => {
    expect(metrics(runCounters({ ...run, status: "stopped", converted: true, place: [1] }, -1))).toEqual([
      "|runs:stopped|-1",
      "|conversions|-1",
      "steps.1|stopped|-1",
    ]);
    expect(metrics(runCounters({ ...run, status: "completed", converted: false, place: [1] }, 1))).toEqual(["|runs:completed|1"]);
    expect(metrics(runCounters({ ...run, status: "active", converted: false, place: null }, 1))).toEqual(["|runs:active|1"]);
  });
});

describe("historyCounters", () => {
  it("counts steps, skips, branches, waits and paths at their step", () => {
    const at = (kind: string, detail: Record<string, unknown>, position: unknown = [0]) =>
      metrics(historyCounters({ kind, position, detail }, run));
    expect(at("step", { type: "tag" })).toEqual(["steps.0|reached|1"]);
    expect(at("skipped", { type: "send", skip: "opted_out" })).toEqual(["steps.0|reached|1", "steps.0|skipped:opted_out|1"]);
    expect(at("skipped", { type: "send" })).toEqual(["steps.0|reached|1", "steps.0|skipped:other|1"]);
    expect(at("step", { type: "branch", took: "else" })).toEqual(["steps.0|reached|1", "steps.0|path:1|1"]);
    expect(at("waiting", { for: "P1D" })).toEqual(["steps.0|reached|1"]);
    expect(at("woke", { at_once: true })).toEqual(["steps.0|reached|1"]);
    expect(at("woke", {})).toEqual([]);
    expect(at("path", { type: "wait_for", path: "on_timeout" })).toEqual(["steps.0|path:1|1"]);
    expect(at("path", { type: "split", path: 2 })).toEqual(["steps.0|reached|1", "steps.0|path:2|1"]);
    expect(at("enrolled", { version: 3 })).toEqual([]);
    expect(at("completed", { reason: "end" }, null)).toEqual([]);
  });
  it("counts a move that carries a wait over as reached there, under the run's new version", () => {
    const counted = historyCounters({ kind: "moved", position: [3], detail: { reached: [3] } }, { ...run, version: 4 });
    expect(counted).toEqual([
      { workspace_id: "ws_1", flow_id: "flow_1", mode: "live", version: 4, path: "steps.3", metric: "reached", n: 1 },
    ]);
    expect(historyCounters({ kind: "moved", position: [3], detail: { reached: null } }, run)).toEqual([]);
  });
});
