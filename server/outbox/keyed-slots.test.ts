import { describe, expect, it } from "vitest";
import { keyedSlots, WAITING_PER_SLOT } from "./keyed-slots.ts";

// D49: one worker's jobs per key (a webhook endpoint, a channel), at most the key's cap at
// once; the real pipeline is proven in e2e/api/webhook-faults.test.ts (an endpoint) and
// e2e/api/pipeline-faults.test.ts (a relay).
describe("keyedSlots", () => {
  const cap = 10;

  it("admits up to the cap, queues the rest in order, and hands each freed slot to the next", () => {
    const slots = keyedSlots<number>();
    const admitted = Array.from({ length: cap + 3 }, (_, i) => slots.admit("wh_a", i, cap));
    expect(admitted.filter(Boolean)).toHaveLength(cap);
    expect(slots.admit("wh_b", 100, cap)).toBe(true); // another key is not held up
    expect(slots.admit("ch_c", 200, 1)).toBe(true); // nor one with a cap of its own
    expect(slots.admit("ch_c", 201, 1)).toBe(false);
    expect(slots.waiting()).toEqual([10, 11, 12, 201]);
    expect([slots.release("wh_a"), slots.release("wh_a")]).toEqual([10, 11]);
    // While any wait, a newcomer queues behind them even though a slot is being handed over.
    expect(slots.admit("wh_a", 13, cap)).toBe(false);
    expect(slots.withdraw()).toEqual([12, 13, 201]);
    expect(slots.release("wh_a")).toBeUndefined();
  });

  it("has claims leave a key alone while its queue is full, and claim again as soon as it is not", () => {
    let reopened = 0;
    const slots = keyedSlots<number>(() => reopened++);
    const total = cap + WAITING_PER_SLOT * cap;
    for (let i = 0; i < total; i++) slots.admit("wh_a", i, cap);
    for (let i = 0; i < 2 + WAITING_PER_SLOT * 2; i++) slots.admit("ch_b", i, 2);
    expect(slots.full()).toEqual(["wh_a", "ch_b"]);
    expect(reopened).toBe(0);
    // A freed slot goes to the first waiting: the queue has room again, and the worker is told.
    expect(slots.release("wh_a")).toBe(cap);
    expect(slots.full()).toEqual(["ch_b"]);
    expect(reopened).toBe(1);
    expect(slots.release("wh_a")).toBe(cap + 1);
    expect(reopened).toBe(1);
  });
});
