import { describe, expect, it } from "vitest";
import { withCause } from "../observability/request-context.ts";
import { JOB_KINDS, JobPayloadError, parsePayload, type JobKind } from "./job-kinds.ts";
import type { Handle } from "../db/client.ts";
import { insertJob, jobRow, readJob, type StoredJob } from "./jobs.ts";

// Issue 11: one schema per job kind; every write of a payload is checked against it, and the
// pipeline parses it again before a handler reads it.

/** What each writer writes today (the events' webhook fan-out, `fanOut`, writes `webhook.deliver`'s in SQL). */
const WRITTEN: { [K in JobKind]: unknown[] } = {
  "message.dispatch": [{}],
  "message.settle": [{ error: "The Cloud API did not answer within 15 s." }],
  "message.simulate": [
    { outcome: "read", step: 0 },
    { outcome: "failed", step: 0 },
    { outcome: "delivered", step: 1 },
  ],
  "webhook.deliver": [{ endpoint_id: "wh_1" }],
  "flow.step": [
    { position: [0] },
    { position: [2, "then", 0] },
    { position: null },
    { position: [1, "on_timeout", 0] },
    { position: [1], wake: { by: "event", event_id: "cev_1" } },
    { position: [1], wake: { by: "message", message_id: "msg_1", status: "read" } },
    { position: [3], wake: { by: "goal", event_id: "cev_1" } },
  ],
  "contact_event.process": [{}],
  "maintenance.sweep": [{}],
  "whatsapp.templates_sync": [{}],
};

const REFUSED: { [K in JobKind]: unknown[] } = {
  "message.dispatch": [{ outcome: "read" }, null],
  "message.settle": [{}, { error: "" }],
  "message.simulate": [{}, { outcome: "lost", step: 0 }, { outcome: "read", step: -1 }, { outcome: "read", step: "1" }],
  "webhook.deliver": [{}, { endpoint_id: "" }, { endpoint_id: 7 }],
  "flow.step": [{}, { position: [-1] }, { position: ["maybe"] }, { position: "0" }, { position: [1], wake: { by: "timeout" } }],
  "contact_event.process": [{ name: "x" }],
  "maintenance.sweep": [[], "{}"],
  "whatsapp.templates_sync": [{ channel: "ch_1" }],
};

const target = { subjectId: "msg_1", workspaceId: "ws_1" };

describe("job kinds", () => {
  it("accept what their writers write and refuse anything else", () => {
    expect(Object.keys(WRITTEN).sort()).toEqual(Object.keys(JOB_KINDS).sort());
    for (const [kind, payloads] of Object.entries(WRITTEN)) for (const p of payloads) expect(parsePayload(kind, p)).toEqual(p);
    for (const [kind, payloads] of Object.entries(REFUSED))
      for (const p of payloads) expect(() => parsePayload(kind, p), `${kind} ${JSON.stringify(p)}`).toThrow(JobPayloadError);
    expect(() => parsePayload("message.send", {})).toThrow(/unknown job kind "message.send"/);
  });

  it("refuse a bad payload at enqueue, before anything is written", async () => {
    let written = 0;
    const sql = (async () => [++written]) as unknown as Handle;
    const bad = { outcome: "lost", step: 0 } as unknown as { outcome: "read"; step: number };
    await expect(insertJob(sql, "message.simulate", bad, target)).rejects.toThrow(/message.simulate payload: .*outcome/);
    expect(() => jobRow("webhook.deliver", {} as { endpoint_id: string }, target)).toThrow(JobPayloadError);
    expect(written).toBe(0);
    await insertJob(sql, "message.simulate", { outcome: "read", step: 0 }, target);
    expect(written).toBe(1);
  });

  it("write every column of a job in one place, the cause of the work included", () => {
    const at = new Date("2026-11-24T10:00:00Z");
    const row = withCause({ requestId: "req_1", traceparent: "00-aa-bb-01" }, () =>
      jobRow("message.dispatch", {}, { ...target, channelId: "ch_1", at }),
    );
    expect(row).toEqual({
      id: expect.stringMatching(/^job_/),
      kind: "message.dispatch",
      subject_id: "msg_1",
      workspace_id: "ws_1",
      channel_id: "ch_1",
      payload: {},
      run_at: at,
      created_at: at,
      request_id: "req_1",
      traceparent: "00-aa-bb-01",
    });
  });

  it("give the pipeline the job with its payload parsed, or refuse it", () => {
    const stored = (kind: string, payload: unknown): StoredJob => ({
      id: "job_1",
      kind,
      payload,
      subject_id: "whd_1",
      workspace_id: "ws_1",
      channel_id: null,
      run_at: new Date(),
      attempts: 1,
      created_at: new Date(),
      request_id: null,
      traceparent: null,
    });
    const job = readJob(stored("webhook.deliver", { endpoint_id: "wh_1" }));
    expect(job.kind === "webhook.deliver" && job.payload.endpoint_id).toBe("wh_1");
    expect(() => readJob(stored("webhook.deliver", { endpoint: "wh_1" }))).toThrow(JobPayloadError);
    expect(() => readJob(stored("webhook.send", {}))).toThrow(JobPayloadError);
  });
});
