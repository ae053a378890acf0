import { describe, expect, it } from "vitest";
import { conditionWords, matchWords } from "./event-words.ts";

describe("a trigger's conditions and a match in words (D62-D64)", () => {
  it("says one condition, each operator, and groups with their nesting", () => {
    expect(conditionWords({ property: "total", gte: 100 })).toBe("total is at least 100");
    expect(conditionWords({ property: "items", contains: "shoes" })).toBe("items contains “shoes”");
    expect(conditionWords({ property: "coupon", exists: true })).toBe("coupon is present");
    expect(conditionWords({ property: "coupon", exists: false })).toBe("coupon is missing");
    expect(conditionWords({ property: "vip", not_equals: true })).toBe("vip is not true");
    expect(
      conditionWords({
        all: [
          { property: "total", gt: 50 },
          {
            any: [
              { property: "plan", equals: "pro" },
              { property: "seats", lte: 3 },
            ],
          },
          { any: [{ property: "country", equals: "BR" }] },
        ],
      }),
    ).toBe("total is greater than 50 and (plan is “pro” or seats is at most 3) and country is “BR”");
  });

  it("says a match, with the run's key in place of {{run.key}} when it is known", () => {
    expect(matchWords({ order_id: "{{run.key}}", "items.0.sku": "A-1" })).toBe("order_id is “{{run.key}}” and items.0.sku is “A-1”");
    expect(matchWords({ order_id: "{{run.key}}" }, "c1")).toBe("order_id is “c1”");
    expect(matchWords(undefined)).toBe("");
  });
});
