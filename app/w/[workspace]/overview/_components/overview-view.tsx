"use client";

import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import dynamic from "next/dynamic";
import { Link } from "@/app/_components/link.tsx";
import { useMode } from "@/app/_components/mode-switch.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { AppRouter } from "@/server/api/root.ts";
import { CHANNEL_TYPES } from "@/app/_channels/channel-words.ts";
import { CHANNEL_COLOR, CHANNEL_LABEL, CHANNEL_WORDS, listed } from "@/app/_components/channel-names.ts";
import { UsageBar } from "../../usage/_components/usage-bar.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";
import { ChartLoading } from "../../usage/_components/chart-loading.tsx";

type Overview = inferRouterOutputs<AppRouter>["overview"]["get"];

// recharts is loaded with the chart only, in the browser (it measures its container).
const DailyChart = dynamic(() => import("../../usage/_components/daily-chart.tsx").then((m) => m.DailyChart), {
  ssr: false,
  loading: () => <ChartLoading />,
});

const count = new Intl.NumberFormat();
const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });

const STATUS_LABEL: Record<Overview["recent"]["by_status"][number]["status"], string> = {
  queued: "Queued",
  sent: "Sent",
  delivered: "Delivered",
  read: "Read",
  failed: "Failed",
};

function Checklist({ workspace, steps, canManage }: { workspace: string; steps: Overview["checklist"]; canManage: boolean }) {
  const base = `/w/${encodeURIComponent(workspace)}`;
  const items = [
    { done: steps.key_created, label: "Create an API key", href: `${base}/keys` },
    { done: steps.channel_connected, label: "Connect a channel", href: `${base}/channels` },
    { done: steps.webhook_registered, label: "Register a webhook endpoint", href: `${base}/webhooks` },
    { done: steps.live_message_sent, label: "Send a first live message", href: "/docs/getting-started" },
  ];
  const left = items.filter((i) => !i.done).length;
  if (left === 0) return null;
  return (
    <section className="panel" aria-labelledby="setup-heading">
      <h2 id="setup-heading">Set up this workspace</h2>
      <p className="muted">
        {4 - left} of 4 steps done. {left === 1 ? "One step is left." : `${left} steps are left.`}
        {!canManage && " An admin of this workspace takes these steps."}
      </p>
      <ul className="checklist">
        {items.map((i) => (
          <li key={i.label} data-done={i.done}>
            <span aria-hidden="true">{i.done ? "✓" : "○"}</span> {i.done ? <span>{i.label}</span> : <Link href={i.href}>{i.label}</Link>}
            <span className="visually-hidden">{i.done ? " (done)" : " (to do)"}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Outcomes({ recent }: { recent: Overview["recent"] }) {
  if (recent.sampled === 0) return <p className="empty">No messages in the last 30 days.</p>;
  return (
    <>
      <div className="figures">
        <div className="figure">
          <span className="figure-value">{recent.delivery_rate === null ? "—" : percent.format(recent.delivery_rate)}</span>
          <span className="figure-label">delivered or read</span>
        </div>
        <div className="figure">
          <span className="figure-value">{recent.failure_rate === null ? "—" : percent.format(recent.failure_rate)}</span>
          <span className="figure-label">failed</span>
        </div>
        <div className="figure">
          <span className="figure-value">{count.format(recent.sampled)}</span>
          <span className="figure-label">{recent.capped ? "newest messages counted" : "messages in 30 days"}</span>
        </div>
      </div>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Messages by status and channel, last 30 days</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              {CHANNEL_TYPES.map((type) => (
                <th key={type} scope="col" className="number">
                  {CHANNEL_LABEL[type]}
                </th>
              ))}
              <th scope="col" className="number">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {recent.by_status.map((s) => (
              <tr key={s.status}>
                <th scope="row">{STATUS_LABEL[s.status]}</th>
                {CHANNEL_TYPES.map((type) => (
                  <td key={type} className="number">
                    {count.format(s[type])}
                  </td>
                ))}
                <td className="number">{count.format(s.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {recent.capped ? (
        <p className="muted hint">
          Rates and statuses are counted over the newest {count.format(recent.sampled)} messages of the last 30 days.
        </p>
      ) : null}
    </>
  );
}

/** The overview: what happened (volume, outcomes), what needs attention (failures, quota, endpoints), what runs (flows). */
export function OverviewView({ workspace, canManage }: { workspace: string; canManage: boolean }) {
  const trpc = useTRPC();
  const mode = useMode();
  const overview = useQuery(trpc.overview.get.queryOptions({ mode }));
  const base = `/w/${encodeURIComponent(workspace)}`;

  const header = (
    <div className="page-header">
      <div>
        <h1>Overview</h1>
        <p className="muted">
          This workspace&apos;s {mode} messages over the last 30 days (UTC days): volume, outcomes, and what needs attention.
        </p>
      </div>
      <button type="button" className="button" onClick={() => overview.refetch()} disabled={overview.isFetching}>
        {overview.isFetching && !overview.isPending ? "Refreshing…" : "Refresh"}
      </button>
    </div>
  );
  if (overview.isPending || overview.isError) {
    return (
      <>
        {header}
        <QueryState query={overview} what="the overview" />
      </>
    );
  }
  const o = overview.data;
  // Today is the last of the 30 days, whose counts are by channel type and mode (`sms_live`).
  const today = o.days.at(-1);
  return (
    <>
      {header}
      <Checklist workspace={workspace} steps={o.checklist} canManage={canManage} />

      <div className="overview-grid">
        <section className="panel" aria-labelledby="today-heading">
          <h2 id="today-heading">Today</h2>
          <div className="figures">
            {CHANNEL_TYPES.map((type) => (
              <div key={type} className="figure">
                <span className="figure-value">{count.format(today?.[`${type}_${o.mode}`] ?? 0)}</span>
                <span className="figure-label">
                  {o.mode} {CHANNEL_WORDS[type]} messages
                </span>
              </div>
            ))}
          </div>
          <p className="muted hint">
            {listed(
              CHANNEL_TYPES.map((type) => `${count.format(o.days.reduce((n, d) => n + d[`${type}_${o.mode}`], 0))} ${CHANNEL_WORDS[type]}`),
            )}{" "}
            messages in 30 days, {o.mode} only.
          </p>
        </section>

        <section className="panel usage-panel" aria-labelledby="quota-heading">
          <h2 id="quota-heading">Limits</h2>
          <UsageBar
            label="Live messages this month"
            value={o.usage.total}
            max={o.usage.limit}
            segments={CHANNEL_TYPES.map((type) => ({ label: CHANNEL_WORDS[type], value: o.usage[type], color: CHANNEL_COLOR[type] }))}
          />
          {CHANNEL_TYPES.map((type) => (
            <UsageBar
              key={type}
              label={`Live ${CHANNEL_WORDS[type]} today`}
              value={today?.[`${type}_live`] ?? 0}
              max={o.usage.daily_limit_per_channel}
            />
          ))}
          <Link href={`${base}/usage`}>Usage by day and month</Link>
        </section>
      </div>

      <section className="section" aria-labelledby="volume-heading">
        <h2 id="volume-heading">Messages per day</h2>
        <div className="panel chart-panel">
          <DailyChart days={o.days} mode={mode} caption="Messages per day over the last 30 days" />
        </div>
      </section>

      <section className="section" aria-labelledby="outcomes-heading">
        <h2 id="outcomes-heading">Outcomes</h2>
        <Outcomes recent={o.recent} />
      </section>

      <div className="overview-grid">
        <section className="panel" aria-labelledby="reasons-heading">
          <h2 id="reasons-heading">Why messages failed</h2>
          {o.recent.failure_reasons.length === 0 ? (
            <p className="muted">No failed messages in the last 30 days.</p>
          ) : (
            <ol className="reasons">
              {o.recent.failure_reasons.map((r) => (
                <li key={r.reason}>
                  <span>{r.reason}</span> <strong>{count.format(r.count)}</strong>
                </li>
              ))}
            </ol>
          )}
          <Link href={`${base}/messages?status=failed`}>Failed messages</Link>
        </section>

        <section className="panel" aria-labelledby="endpoints-heading">
          <h2 id="endpoints-heading">Webhook endpoints that fail</h2>
          {o.failing_endpoints.length === 0 ? (
            <p className="muted">Every endpoint answered in the last 24 hours.</p>
          ) : (
            <ul className="attention">
              {o.failing_endpoints.map((e) => (
                <li key={e.id}>
                  <Link href={`${base}/webhooks/${encodeURIComponent(e.id)}`}>{e.url}</Link>{" "}
                  <span className="muted">
                    {e.disabled_reason
                      ? "disabled"
                      : `${count.format(e.failed_24h)} failed, ${count.format(e.succeeded_24h)} succeeded in 24 hours`}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="panel" aria-labelledby="flows-heading">
          <h2 id="flows-heading">Flows with contacts in them</h2>
          {o.active_flows.length === 0 ? (
            <p className="muted">No flow has an active run.</p>
          ) : (
            <ul className="attention">
              {o.active_flows.map((f) => (
                <li key={f.id}>
                  <Link href={`${base}/flows/${encodeURIComponent(f.id)}`}>{f.name}</Link>{" "}
                  <span className="muted">
                    {count.format(f.active_runs)} active {f.active_runs === 1 ? "run" : "runs"}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
