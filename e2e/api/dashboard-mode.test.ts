import { describe, expect, it } from "vitest";
import type { FlowStats } from "../../server/flows/flow-stats.ts";
import type { WorkspaceOverview } from "../../server/overview/workspace-overview.ts";
import { api, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";

// The dashboard's test/live switch (docs/dashboard.md "Test and live") through the real server
// and database on both engines: the overview and a flow's statistics count the mode asked for
// (D40: messages and runs belong to their key's mode), and a workspace that has sent no live
// message opens on test data. A workspace of its own: the figures are counts.

const fx = fixtures();
const ws = fx.modes!;

describe("the dashboard's mode", () => {
  it("the overview counts the messages of the mode asked; a workspace without live messages defaults to test", async () => {
    for (const n of [1, 2, 3]) {
      const sent = await api(ws.keys.test).post("/messages", {
        channel: "whatsapp",
        to: { phone: `+1555010${String(6100 + n)}` },
        whatsapp: { body: `Mode ${n}` },
      });
      expect(sent.status, sent.text).toBe(202);
    }
    const test = await dashboardQuery<WorkspaceOverview>(ws.id, "overview.get", { mode: "test" });
    const live = await dashboardQuery<WorkspaceOverview>(ws.id, "overview.get", { mode: "live" });
    expect(test.mode).toBe("test");
    expect(test.today.whatsapp).toBe(3);
    expect(test.last_30_days.whatsapp).toBe(3);
    expect(test.recent.sampled).toBe(3);
    expect(live.today.whatsapp).toBe(0);
    expect(live.recent.sampled).toBe(0);
    expect(live.recent.by_status.every((s) => s.total === 0)).toBe(true);
    // The chart's days hold both modes; the page draws the one shown.
    expect(live.days.at(-1)).toMatchObject({ whatsapp_test: 3, whatsapp_live: 0 });
    expect(await dashboardQuery<string>(ws.id, "overview.defaultMode", undefined)).toBe("test");
    // Neither mode is anything else.
    await expect(dashboardQuery(ws.id, "overview.get", { mode: "both" })).rejects.toThrow();
  });

  it("a flow's statistics count the runs of the mode asked", async () => {
    const { flow_id } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
      definition: { name: "Mode stats", status: "active", steps: [{ type: "wait", duration: "P1D" }] },
    });
    const enrolled = await api(ws.keys.test).post(`/flows/${flow_id}/enroll`, { to: { phone: "+15550106200" } });
    expect(enrolled.status, enrolled.text).toBeLessThan(300);
    const stats = (mode: string) => dashboardQuery<FlowStats>(ws.id, "flows.modeStats", { flow_id, mode });
    // The run waits at its first step as soon as it is enrolled; the pipeline then runs the step
    // (it begins the wait: reached), on its own time.
    await expect.poll(async () => (await stats("test")).versions[0]!.steps[0]!.reached, { timeout: 15_000 }).toBe(1);
    const test = await stats("test");
    expect(test.runs.active).toBe(1);
    expect(test.versions[0]!.steps[0]).toMatchObject({ reached: 1, waiting: 1 });
    const live = await stats("live");
    expect(live.runs.active).toBe(0);
    expect(live.versions[0]!.steps[0]).toMatchObject({ reached: 0, waiting: 0 });
  });
});
