"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { CHANNEL_TYPES } from "@/app/_channels/channel-words.ts";
import { CHANNEL_COLOR, CHANNEL_LABEL } from "@/app/_components/channel-names.ts";
import type { DashboardMode } from "@/app/_lib/dashboard-mode.ts";
import type { DailyUsage } from "@/server/usage/usage-report.ts";

/** The series of one mode's messages (the top bar's switch): every channel stacked in one bar per day, in the same colours in both modes (the pale ones test had beside live were too faint for their legend). */
const seriesOf = (mode: DashboardMode) =>
  CHANNEL_TYPES.map((type) => ({ key: `${type}_${mode}` as const, name: `${CHANNEL_LABEL[type]} (${mode})`, color: CHANNEL_COLOR[type] }));

const dayFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", timeZone: "UTC" });

function dayLabel(day: string): string {
  return dayFormat.format(new Date(`${day}T00:00:00Z`));
}

/** The month day by day (UTC days) as bars, with the numbers in a table for those who cannot see the chart. */
export function DailyChart({
  days,
  mode,
  caption = "Messages per day this month",
}: {
  days: DailyUsage[];
  mode: DashboardMode;
  caption?: string;
}) {
  const series = seriesOf(mode);
  const data = days.map((d) => ({ ...d, label: String(Number(d.day.slice(8))) }));
  return (
    <figure className="daily-chart">
      <div className="chart-box">
        <ResponsiveContainer width="100%" height={280}>
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer>
            <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.15} />
            <XAxis dataKey="label" tick={{ fill: "currentColor", fontSize: 12 }} stroke="currentColor" interval="preserveStartEnd" />
            <YAxis allowDecimals={false} tick={{ fill: "currentColor", fontSize: 12 }} stroke="currentColor" />
            <Tooltip
              labelFormatter={(_, payload) => {
                const day = payload?.[0]?.payload as { day?: string } | undefined;
                return day?.day ? dayLabel(day.day) : "";
              }}
              contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", borderRadius: 8, color: "var(--text)" }}
              cursor={{ fill: "currentColor", fillOpacity: 0.08 }}
            />
            <Legend itemSorter={null} />
            {series.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={s.name} stackId="day" fill={s.color} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="visually-hidden">
        {caption}
        {mode === "test" ? ", test messages" : ", live messages"}
      </figcaption>
      <details>
        <summary>Show the numbers</summary>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Messages per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map((s) => (
                  <th key={s.key} scope="col" className="number">
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">
                    <time dateTime={d.day}>{dayLabel(d.day)}</time>
                  </th>
                  {series.map((s) => (
                    <td key={s.key} className="number">
                      {d[s.key]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
