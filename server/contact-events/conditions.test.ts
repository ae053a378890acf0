import { describe, expect, it } from "vitest";
import { flatten, satisfies, valueAt, ZEventCondition, type EventCondition } from "./conditions.ts";

// D62, D84: a trigger's `where` on an event's properties.
const properties = {
  total: 150,
  plan: "pro",
  note: "gift wrap please",
  items: ["shoes", "hat"],
  address: { city: "Recife" },
  coupon: null,
};

describe("trigger conditions (D62, D84)", () => {
  it("reads dotted paths, array elements by index", () => {
    expect(valueAt(properties, "address.city")).toBe("Recife");
    expect(valueAt(properties, "items.1")).toBe("hat");
    expect(valueAt(properties, "items.x")).toBeUndefined();
    expect(valueAt(properties, "total.value")).toBeUndefined();
    expect(flatten(properties, "event")).toEqual({
      "event.total": 150,
      "event.plan": "pro",
      "event.note": "gift wrap please",
      "event.items.0": "shoes",
      "event.items.1": "hat",
      "event.address.city": "Recife",
    });
  });

  it.each<[EventCondition, boolean]>([
    [{ property: "plan", equals: "pro" }, true],
    [{ property: "plan", equals: "free" }, false],
    [{ property: "plan", not_equals: "free" }, true],
    [{ property: "missing", not_equals: "free" }, true],
    [{ property: "total", gt: 149 }, true],
    [{ property: "total", gt: 150 }, false],
    [{ property: "total", gte: 150 }, true],
    [{ property: "total", lt: 151 }, true],
    [{ property: "total", lte: 149 }, false],
    [{ property: "total", gt: "100" }, false], // a number never compares with a text
    [{ property: "coupon", exists: true }, false],
    [{ property: "coupon", exists: false }, true],
    [{ property: "note", contains: "gift" }, true],
    [{ property: "items", contains: "hat" }, true],
    [{ property: "items", contains: "ha" }, false], // an array element, not a substring of one
    [
      {
        all: [
          { property: "plan", equals: "pro" },
          {
            any: [
              { property: "total", lt: 10 },
              { property: "items", contains: "shoes" },
            ],
          },
        ],
      },
      true,
    ],
    [
      {
        any: [
          { property: "plan", equals: "free" },
          { property: "total", lt: 10 },
        ],
      },
      false,
    ],
  ])("%j holds: %s", (condition, expected) => {
    expect(ZEventCondition.safeParse(condition).success).toBe(true);
    expect(satisfies(condition, properties)).toBe(expected);
  });

  it("refuses an unknown operator, two operators, a bad operand and a fourth level, each at its path", () => {
    const path = (c: unknown) => ZEventCondition.safeParse(c).error?.issues[0]?.path.join(".");
    expect(path({ property: "a", greater: 1 })).toBe("greater");
    expect(path({ property: "a", gt: 1, lt: 2 })).toBe("");
    expect(
      path({
        any: [
          { property: "a", equals: 1 },
          { property: "b", gt: {} },
        ],
      }),
    ).toBe("any.1.gt");
    expect(path({ all: [{ any: [{ all: [{ any: [{ property: "a", exists: true }] }] }] }] })).toBe("all.0.any.0.all.0.any");
    expect(path({ property: "a b", equals: 1 })).toBe("property");
  });
});
