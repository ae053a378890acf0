import type { MonthlyUsage } from "@/server/usage/usage-report.ts";

const count = new Intl.NumberFormat();

/** "2026-05" as "May 2026" (a UTC calendar month). */
export function monthName(period: string): string {
  const [year, month] = period.split("-").map(Number);
  return new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, 1)),
  );
}

/** The past months, newest first: live messages per channel, what counts against the limits. */
export function UsageMonths({ months }: { months: MonthlyUsage[] }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Live messages per month, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col" className="number">
              WhatsApp (live)
            </th>
            <th scope="col" className="number">
              E-mail (live)
            </th>
            <th scope="col" className="number">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr key={m.period}>
              <th scope="row">
                <time dateTime={m.period}>{monthName(m.period)}</time>
              </th>
              <td className="number">{count.format(m.whatsapp)}</td>
              <td className="number">{count.format(m.email)}</td>
              <td className="number">{count.format(m.whatsapp + m.email)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
