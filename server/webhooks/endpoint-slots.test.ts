import { describe, expect, it } from "vitest";
import { endpointSlots, MAX_IN_FLIGHT_PER_ENDPOINT, WAITING_PER_ENDPOINT } from "./deliver-webhook.ts";

// D49: one worker's deliveries to one endpoint, at most MAX_IN_FLIGHT_PER_ENDPOINT at once;
// the real pipeline is proven in e2e/api/webhook-faults.test.ts.
describe("endpointSlots", () => {
  it("admits up to the cap, queues the rest in order, and hands each freed slot to the next", () => {
    const slots = endpointSlots<number>();
    const admitted = Array.from({ length: MAX_IN_FLIGHT_PER_ENDPOINT + 3 }, (_, i) => slots.admit("wh_a", i));
    expect(admitted.filter(Boolean)).toHaveLength(MAX_IN_FLIGHT_PER_ENDPOINT);
    expect(slots.admit("wh_b", 100)).toBe(true); // another endpoint is not held up
    expect(slots.waiting()).toEqual([10, 11, 12]);
    expect([slots.release("wh_a"), slots.release("wh_a")]).toEqual([10, 11]);
    // While any wait, a newcomer queues behind them even though a slot is being handed over.
    expect(slots.admit("wh_a", 13)).toBe(false);
    expect(slots.withdraw()).toEqual([12, 13]);
    expect(slots.release("wh_a")).toBeUndefined();
  });

  it("has claims leave an endpoint alone while its queue is full, and claim again as soon as it is not", () => {
    let reopened = 0;
    const slots = endpointSlots<number>(() => reopened++);
    const total = MAX_IN_FLIGHT_PER_ENDPOINT + WAITING_PER_ENDPOINT;
    for (let i = 0; i < total; i++) slots.admit("wh_a", i);
    expect(slots.skip().values).toEqual(["wh_a"]);
    expect(reopened).toBe(0);
    // A freed slot goes to the first waiting: the queue has room again, and the worker is told.
    expect(slots.release("wh_a")).toBe(MAX_IN_FLIGHT_PER_ENDPOINT);
    expect(slots.skip().values).toEqual([]);
    expect(reopened).toBe(1);
    expect(slots.release("wh_a")).toBe(MAX_IN_FLIGHT_PER_ENDPOINT + 1);
    expect(reopened).toBe(1);
  });
});
