import { z } from "zod";

// D89: a workspace's WhatsApp prices (one amount per Meta pricing category, in one currency)
// and the cost they give to counts of charged messages. Amounts are decimal text, summed in
// millionths so that the estimate is exact to six decimals.

/** A Meta pricing category as Meta names it: `marketing`, `utility`, `authentication_international`… */
export const ZPricingCategory = z.string().regex(/^[a-z][a-z0-9_]{0,99}$/, "must be a pricing category in lower case, such as marketing");

/** Meta's pricing categories as its status reports name them in 2026; the settings page offers a price for each. */
export const META_PRICING_CATEGORIES = [
  "marketing",
  "marketing_lite",
  "utility",
  "authentication",
  "authentication_international",
  "service",
  "referral_conversion",
] as const;

/** What one charged message costs: a decimal of at most 6 places, e.g. `0.0625`. */
export const ZPriceAmount = z.string().regex(/^\d{1,9}(\.\d{1,6})?$/, "must be an amount such as 0.0625 (at most 6 decimals)");

/** An ISO 4217 currency code: three capital letters. */
export const ZCurrency = z.string().regex(/^[A-Z]{3}$/, "must be a currency code of three capital letters, such as USD or BRL");

export const ZWhatsAppPrices = z.record(ZPricingCategory, ZPriceAmount);
export type WhatsAppPrices = z.infer<typeof ZWhatsAppPrices>;

export const ZCost = z
  .object({
    amount: z
      .number()
      .describe("The estimate: each category's charged messages times its price, summed (categories without a price count nothing)."),
    currency: z.string().describe("The currency of the prices, an ISO 4217 code."),
  })
  .meta({ id: "Cost" });
export type Cost = z.infer<typeof ZCost>;

const MICROS = 1_000_000;

function micros(amount: string): number {
  const [whole, fraction = ""] = amount.split(".");
  return Number(whole) * MICROS + Number(fraction.padEnd(6, "0"));
}

/**
 * The estimated cost of `charged` messages per category at the workspace's prices; null when
 * the workspace has no currency (no prices set).
 */
export function estimateCost(charged: Record<string, number>, prices: WhatsAppPrices, currency: string | null): Cost | null {
  if (!currency) return null;
  let total = 0;
  for (const [category, n] of Object.entries(charged)) {
    const price = prices[category];
    if (price !== undefined) total += n * micros(price);
  }
  return { amount: total / MICROS, currency };
}

/** Counter keys `<category>:charged` / `<category>:free` (apply-report.ts) as `{ <category>: { charged, free } }`, zeros left out. */
export function pricingByCategory(keys: Record<string, number>): Record<string, { charged: number; free: number }> {
  const out: Record<string, { charged: number; free: number }> = {};
  for (const [key, n] of Object.entries(keys)) {
    const at = key.lastIndexOf(":");
    const category = key.slice(0, at);
    const kind = key.slice(at + 1);
    if (!n || (kind !== "charged" && kind !== "free")) continue;
    out[category] ??= { charged: 0, free: 0 };
    out[category][kind] += n;
  }
  return out;
}
