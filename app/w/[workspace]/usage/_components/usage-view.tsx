"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useMode } from "@/app/_components/mode-switch.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { UsageBar } from "./usage-bar.tsx";
import { monthName, UsageMonths } from "./usage-months.tsx";
import { UsageTotals } from "./usage-totals.tsx";
import { UsagePricing } from "./usage-pricing.tsx";
import { formatCost } from "@/app/_components/money.ts";
import { CHANNEL_TYPES, CHANNEL_WORDS_OF, type UsageCount } from "@/app/_channels/channel-words.ts";
import { CHANNEL_COLOR, CHANNEL_LABEL, CHANNEL_WORDS, listed } from "@/app/_components/channel-names.ts";
import { QueryState } from "@/app/_components/query-state.tsx";
import { ChartLoading } from "./chart-loading.tsx";

// recharts is loaded with the chart only, in the browser (it measures its container).
const count = new Intl.NumberFormat();

/** What the channels add to the month's usage (the sms's segments), in their words. */
const USAGE_FIELDS = CHANNEL_TYPES.flatMap(
  (type) => Object.entries(CHANNEL_WORDS_OF[type].usage ?? {}) as [UsageCount, (count: string) => string][],
);

const DailyChart = dynamic(() => import("./daily-chart.tsx").then((m) => m.DailyChart), {
  ssr: false,
  loading: () => <ChartLoading />,
});

/** The usage page: this month against the limits, today per channel, the month day by day, test versus live, past months. */
export function UsageView() {
  const trpc = useTRPC();
  const report = useQuery(trpc.usage.report.queryOptions());
  const mode = useMode();

  const header = (
    <div className="page-header">
      <div>
        <h1>Usage</h1>
        <p className="muted">
          Live messages count against the limits when they are accepted, whether the API or a flow sent them. Test messages never count.
          Months and days are in UTC.
        </p>
      </div>
      <button type="button" className="button" onClick={() => report.refetch()} disabled={report.isFetching}>
        {report.isFetching && !report.isPending ? "Refreshing…" : "Refresh"}
      </button>
    </div>
  );
  if (report.isPending || report.isError) {
    return (
      <>
        {header}
        <QueryState query={report} what="the usage" />
      </>
    );
  }

  const r = report.data;
  const month = monthName(r.period);
  return (
    <>
      {header}
      <section className="panel usage-panel" aria-labelledby="month-heading">
        <h2 id="month-heading">This month: {month}</h2>
        <UsageBar
          label="Live messages this month"
          value={r.total}
          max={r.limit}
          segments={CHANNEL_TYPES.map((type) => ({ label: CHANNEL_WORDS[type], value: r[type], color: CHANNEL_COLOR[type] }))}
        />
        {USAGE_FIELDS.map(([field, words]) => (
          <p key={field} data-testid={`usage-${field}`}>
            {words(count.format(r[field]))}
          </p>
        ))}
        <p className="muted">
          {r.limit === null
            ? "This workspace has no monthly limit."
            : "The monthly limit applies to all channels together; once it is reached, live sends are refused with quota_exceeded."}
        </p>
      </section>

      <section className="panel usage-panel" aria-labelledby="today-heading">
        <h2 id="today-heading">Today (UTC)</h2>
        {CHANNEL_TYPES.map((type) => (
          <UsageBar key={type} label={`${CHANNEL_LABEL[type]} today`} value={r.today[type]} max={r.daily_limit_per_channel} />
        ))}
        <p className="muted">Each channel may send {r.daily_limit_per_channel.toLocaleString()} live messages a day.</p>
      </section>

      <section className="section" aria-labelledby="daily-heading">
        <h2 id="daily-heading">
          {mode === "test" ? "Test" : "Live"} messages day by day in {month}
        </h2>
        {mode === "test" && (
          <p className="muted hint">Test messages, as the top bar&apos;s switch shows; they never count against the limits.</p>
        )}
        <div className="panel chart-panel">
          <DailyChart days={r.days} mode={mode} />
        </div>
      </section>

      <section className="section" aria-labelledby="totals-heading">
        <h2 id="totals-heading">Test and live this month</h2>
        <UsageTotals live={r} test={r.test} />
        {CHANNEL_TYPES.some((type) => r.canceled[type] > 0) && (
          <p className="muted" data-testid="usage-canceled">
            Canceled before sending this month, and given back to the limits:{" "}
            {listed(CHANNEL_TYPES.map((type) => `${r.canceled[type].toLocaleString()} ${CHANNEL_WORDS[type]}`))} live messages (not counted
            above).
          </p>
        )}
      </section>

      <section className="section" aria-labelledby="pricing-heading">
        <h2 id="pricing-heading">WhatsApp cost this month</h2>
        <p className="muted hint">
          Live WhatsApp messages by Meta&apos;s pricing category, as their latest status reports priced them.
          {r.whatsapp_cost && <> Estimated cost: {formatCost(r.whatsapp_cost)}.</>}
        </p>
        <UsagePricing rows={r.pricing} total={r.whatsapp_cost} currency={r.currency} />
      </section>

      <section className="section" aria-labelledby="months-heading">
        <h2 id="months-heading">Month by month</h2>
        <p className="muted hint">Live messages of the last {r.months.length} months in UTC, this one first.</p>
        <UsageMonths months={r.months} />
      </section>
    </>
  );
}
