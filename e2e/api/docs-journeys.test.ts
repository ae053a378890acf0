import { describe, expect, it } from "vitest";
import { CART_ABANDONED, CART_FLOW, INVOICE_DUE, INVOICE_PAID, ORDER_PLACED, REMINDER_FLOW } from "../../app/docs/journeys/examples.ts";
import { api, fixtures } from "../support/client.ts";
import { dashboardMutation, dashboardQuery } from "../support/dashboard.ts";
import { poller } from "../support/until.ts";

// The worked journeys of /docs/journeys, run as the page shows them: each flow document saved
// as written, each event sent as written (issue "Journeys that react": the docs).
const ws = fixtures().examples!;
const key = api(ws.keys.test);
const until = poller(20_000);

type Run = { id: string; status: string; key: string | null; history: { kind: string; [k: string]: unknown }[] };

const save = async (definition: unknown) => (await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", { definition })).flow_id;
const runsOf = async (flowId: string) => (await key.get<Run[]>(`/flows/${flowId}/runs`)).body;
const runOf = async (id: string) => (await key.get<Run>(`/runs/${id}`)).body;
const text = async (messageId: unknown) =>
  (await dashboardQuery<{ content: { body: string } }>(ws.id, "messages.detail", { id: messageId })).content.body;

describe("/docs/journeys worked examples", () => {
  it("the abandoned cart: the event starts a keyed run that waits, a retry changes nothing, the order ends it before any send", async () => {
    const flowId = await save(CART_FLOW);
    const abandoned = await key.post("/events", CART_ABANDONED);
    expect(abandoned.status).toBe(202);
    const [run] = await until(
      () => runsOf(flowId),
      (r) => r.length === 1,
    );
    expect(run!.key).toBe("cart_81f2");
    await until(
      () => runOf(run!.id),
      (r) => r.history.some((h) => h.kind === "waiting" && h.for === "PT1H"),
    );
    const retried = await key.post("/events", CART_ABANDONED);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.body.id).toBe(abandoned.body.id);
    expect(await key.post("/events", ORDER_PLACED)).toMatchObject({ status: 202 });
    const done = await until(
      () => runOf(run!.id),
      (r) => r.status !== "active",
    );
    expect(done.history.map((h) => h.kind)).toEqual(["entered", "waiting", "converted", "ended"]);
    expect(done.history.at(-1)).toMatchObject({ status: "completed", reason: "goal_reached" });
    expect(await runsOf(flowId)).toHaveLength(1);
  });

  it("the payment reminder: reminds with the invoice's data, wakes on its payment and thanks", async () => {
    const flowId = await save(REMINDER_FLOW);
    expect((await key.post("/events", INVOICE_DUE)).status).toBe(202);
    const [run] = await until(
      () => runsOf(flowId),
      (r) => r.length === 1,
    );
    const waiting = await until(
      () => runOf(run!.id),
      (r) => r.history.some((h) => h.kind === "waiting"),
    );
    expect(await text(waiting.history.find((h) => h.kind === "sent")!.message_id)).toBe(
      "Invoice inv_2026_0042 of R$ 149,90 is due on 2026-12-05: https://pay.example/inv_2026_0042",
    );
    expect((await key.post("/events", INVOICE_PAID)).status).toBe(202);
    const done = await until(
      () => runOf(run!.id),
      (r) => r.status !== "active",
    );
    expect(done.history.map((h) => h.kind)).toEqual(["entered", "sent", "waiting", "woke", "path", "sent", "ended"]);
    expect(done.history.find((h) => h.kind === "path")).toMatchObject({ path: "on_event" });
    expect(await text(done.history.filter((h) => h.kind === "sent")[1]!.message_id)).toBe("Thank you: invoice inv_2026_0042 is paid.");
  });
});
