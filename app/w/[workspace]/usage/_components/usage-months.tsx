import { CHANNEL_TYPES } from "@/app/_channels/channel-words.ts";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";
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
            {CHANNEL_TYPES.map((type) => (
              <th key={type} scope="col" className="number">
                {CHANNEL_LABEL[type]} (live)
              </th>
            ))}
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
              {CHANNEL_TYPES.map((type) => (
                <td key={type} className="number">
                  {count.format(m[type])}
                </td>
              ))}
              <td className="number">{count.format(CHANNEL_TYPES.reduce((n, type) => n + m[type], 0))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
