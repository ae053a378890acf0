import { formatCost } from "@/app/_components/money.ts";
import type { Cost } from "@/server/usage/whatsapp-cost.ts";

type Row = { category: string; charged: number; free: number; price: string | null; cost: Cost | null };

const count = new Intl.NumberFormat();

/** This month's live WhatsApp messages by Meta's pricing category, charged and free, with their estimated cost at the workspace's prices. */
export function UsagePricing({ rows, total, currency }: { rows: Row[]; total: Cost | undefined; currency: string | null }) {
  if (rows.length === 0) {
    return <p className="muted">No WhatsApp message of this month has been priced by Meta yet.</p>;
  }
  return (
    <>
      <div className="table-wrap narrow">
        <table>
          <caption className="visually-hidden">WhatsApp messages by pricing category this month</caption>
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col" className="number">
                Charged
              </th>
              <th scope="col" className="number">
                Free
              </th>
              <th scope="col" className="number">
                Price
              </th>
              <th scope="col" className="number">
                Estimated cost
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.category}>
                <th scope="row">{row.category.replace(/_/g, " ")}</th>
                <td className="number">{count.format(row.charged)}</td>
                <td className="number">{count.format(row.free)}</td>
                <td className="number">{row.price !== null && currency ? formatCost({ amount: Number(row.price), currency }) : "—"}</td>
                <td className="number">{row.cost ? formatCost(row.cost) : "—"}</td>
              </tr>
            ))}
          </tbody>
          {total && (
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <td className="number">{count.format(rows.reduce((n, r) => n + r.charged, 0))}</td>
                <td className="number">{count.format(rows.reduce((n, r) => n + r.free, 0))}</td>
                <td className="number" />
                <td className="number">{formatCost(total)}</td>
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      <p className="muted hint">
        {total
          ? "An estimate: each category's charged messages times the price set for it. Categories without a price count nothing."
          : "Set what a charged message of each category costs in the workspace's settings (or with svc workspace update --whatsapp-price CATEGORY=AMOUNT --currency CODE) to see an estimated cost."}
      </p>
    </>
  );
}
