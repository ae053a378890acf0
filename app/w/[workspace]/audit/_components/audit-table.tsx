"use client";

import type { inferRouterOutputs } from "@trpc/server";
import { Link } from "@/app/_components/link.tsx";
import { useEffect, useState } from "react";
import type { AppRouter } from "@/server/api/root.ts";
import { auditActionLabel, AUDIT_TARGETS } from "@/server/audit/audit-actions.ts";
import { hasAllScopes } from "@/server/keys/scopes.ts";
import { CHANNEL_WORDS } from "@/app/_components/channel-names.ts";

export type AuditEntry = inferRouterOutputs<AppRouter>["audit"]["list"]["items"][number];

const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
  ["second", 1],
];

/** "5 minutes ago", from `now`. */
function ago(date: Date, now: number): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  for (const [unit, size] of UNITS)
    if (Math.abs(seconds) >= size || unit === "second") return relative.format(Math.round(seconds / size), unit);
  return "";
}

/** The time of a change: relative, then absolute (the exact instant on hover). */
function Time({ value }: { value: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const date = new Date(value);
  return (
    <time dateTime={value} title={value} className="audit-time">
      <span>{ago(date, now)}</span>
      <span className="muted">{absolute.format(date)}</span>
    </time>
  );
}

function Actor({ actor }: { actor: AuditEntry["actor"] }) {
  if (actor.type === "cli") return <span>Operator (command line)</span>;
  if (actor.type === "api_key") return <span>API key {actor.name}</span>;
  return (
    <span className="audit-actor">
      <span>{actor.name ?? actor.email}</span>
      {actor.name && actor.email ? <span className="muted">{actor.email}</span> : null}
    </span>
  );
}

/** Where the target can be seen: its own page, or the list it is in. */
function targetHref(workspace: string, type: string, id: string | null, linked: boolean): string | null {
  const base = `/w/${encodeURIComponent(workspace)}`;
  if (type === "flow" && id) return `${base}/flows/${encodeURIComponent(id)}`;
  if (type === "webhook") return linked && id ? `${base}/webhooks/${encodeURIComponent(id)}` : null;
  if (type === "api_key") return `${base}/keys`;
  if (type === "channel") return `${base}/channels`;
  if (type === "user") return `${base}/team`;
  return null;
}

function Target({ workspace, target }: { workspace: string; target: AuditEntry["target"] }) {
  const kind = (AUDIT_TARGETS as Record<string, string>)[target.type] ?? target.type;
  const name = target.label ?? target.id ?? "";
  const href = targetHref(workspace, target.type, target.id, target.linked);
  return (
    <span>
      <span className="muted">{kind}</span> {href ? <Link href={href}>{name}</Link> : name}
    </span>
  );
}

/** A channel type in a sentence; a type the dashboard does not know (an older entry's) as recorded. */
const channelType = (type: string) => (CHANNEL_WORDS as Partial<Record<string, string>>)[type] ?? type;

const ROLE = { admin: "admin", support: "support" } as Record<string, string>;

/** The change in a few words, from the entry's detail. */
function summary(entry: AuditEntry): string {
  const d = entry.detail as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  switch (entry.action) {
    case "api_key.created":
      if (Array.isArray(d.scopes) && hasAllScopes(d.scopes.map(String))) return `${str(d.mode)} key, all scopes`;
      return `${str(d.mode)} key${Array.isArray(d.scopes) ? `, ${d.scopes.length} scope${d.scopes.length === 1 ? "" : "s"}` : ""}`;
    case "team.member_added":
      return `as ${ROLE[str(d.role)] ?? str(d.role)}${d.new_account ? ", new account" : ""}`;
    case "team.role_changed":
      return `${ROLE[str(d.from)] ?? ""} → ${ROLE[str(d.to)] ?? ""}`;
    case "flow.activated":
    case "flow.paused":
    case "flow.archived":
      return `was ${str(d.from)}`;
    case "flow.updated":
      return typeof d.version === "number" ? `version ${d.version}` : "";
    case "webhook.updated": {
      const parts = [
        d.url_changed ? "URL" : "",
        Array.isArray(d.events) ? "events" : "",
        "description" in d ? "description" : "",
        d.enabled === true ? "enabled" : d.enabled === false ? "disabled" : "",
      ].filter(Boolean);
      return parts.join(", ");
    }
    case "channel.connected":
    case "channel.disconnected":
      return channelType(str(d.type));
    case "channel.resumed":
      return `${channelType(str(d.type))}, paused for ${str(d.reason).replace(/_/g, " ")}`;
    case "workspace.created":
      return d.plan ? `${str(d.plan)} plan` : "";
    default:
      return "";
  }
}

type Props = { workspace: string; events: AuditEntry[]; busy: boolean };

export function AuditTable({ workspace, events, busy }: Props) {
  return (
    <div className="table-wrap" aria-busy={busy}>
      <table>
        <caption className="visually-hidden">Changes to this workspace, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.id}>
              <td>
                <Time value={e.created_at} />
              </td>
              <td>
                <Actor actor={e.actor} />
              </td>
              <th scope="row">
                <span>
                  {auditActionLabel(e.action)} <code className="muted">{e.action}</code>
                </span>
              </th>
              <td>
                <Target workspace={workspace} target={e.target} />
              </td>
              <td>{summary(e) || <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
