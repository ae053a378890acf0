import type { Cost } from "@/server/usage/whatsapp-cost.ts";

/** An estimated cost in its currency, with up to 4 decimals (prices per message are fractions of a cent): "US$0.2555". */
export function formatCost(cost: Cost): string {
  return new Intl.NumberFormat(undefined, {
    style: "currency",
    currency: cost.currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
  }).format(cost.amount);
}
