import { describe, expect, it } from "vitest";
import { estimateCost, pricingByCategory } from "./whatsapp-cost.ts";

// D89: the estimate is exact to six decimals, counts charged messages only, and needs a currency.
describe("estimateCost", () => {
  it("sums each category's charged messages times its price, exactly", () => {
    expect(estimateCost({ marketing: 3, utility: 10, service: 4 }, { marketing: "0.0625", utility: "0.0068" }, "USD")).toEqual({
      amount: 0.2555,
      currency: "USD",
    });
    expect(estimateCost({ marketing: 1_000_000 }, { marketing: "0.000001" }, "BRL")).toEqual({ amount: 1, currency: "BRL" });
    expect(estimateCost({ marketing: 3 }, {}, null)).toBeNull();
  });

  it("reads the counters' keys as charged and free per category", () => {
    expect(pricingByCategory({ "marketing:charged": 2, "marketing:free": 1, "utility:free": 0, "marketing_lite:charged": 1 })).toEqual({
      marketing: { charged: 2, free: 1 },
      marketing_lite: { charged: 1, free: 0 },
    });
  });
});
