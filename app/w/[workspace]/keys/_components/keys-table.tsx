"use client";

import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root.ts";
import { hasAllScopes } from "@/server/keys/scopes.ts";

export type ApiKeyRow = inferRouterOutputs<AppRouter>["keys"]["list"][number];

/** What the dashboard shows of a key after its creation: prefix and last four (D21). */
export function maskedKey(key: Pick<ApiKeyRow, "prefix" | "lastFour">): string {
  return `${key.prefix}…${key.lastFour}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Dates arrive as ISO strings over JSON (the router has no transformer). */
function When({ value, empty }: { value: Date | string | null; empty: string }) {
  if (!value) return <span className="muted">{empty}</span>;
  const date = new Date(value);
  return <time dateTime={date.toISOString()}>{dateTime.format(date)}</time>;
}

function Scopes({ scopes }: { scopes: string[] }) {
  if (hasAllScopes(scopes)) return <span title="Including scopes added later">All scopes</span>;
  return (
    <ul className="chips">
      {scopes.map((s) => (
        <li key={s}>{s}</li>
      ))}
    </ul>
  );
}

type Props = { keys: ApiKeyRow[]; onRevoke?: (key: ApiKeyRow) => void };

/** The workspace's keys; `onRevoke` (admins only) adds the revoke buttons. */
export function KeysTable({ keys, onRevoke }: Props) {
  if (keys.length === 0) return <p className="empty">No API keys yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">API keys of this workspace</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Mode</th>
            <th scope="col">Key</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            {onRevoke && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} className={key.revokedAt ? "revoked" : undefined}>
              <th scope="row">{key.name}</th>
              <td>
                <span className={`badge ${key.mode}`}>{key.mode}</span>
              </td>
              <td>
                <code>{maskedKey(key)}</code>
              </td>
              <td>
                <Scopes scopes={key.scopes} />
              </td>
              <td>
                <When value={key.createdAt} empty="" />
              </td>
              <td>
                <When value={key.lastUsedAt} empty="Never" />
              </td>
              <td>{key.revokedAt ? <span className="badge revoked">Revoked</span> : <span className="badge active">Active</span>}</td>
              {onRevoke && (
                <td>
                  {key.revokedAt ? (
                    <span className="muted">—</span>
                  ) : (
                    <button type="button" className="button danger small" aria-label={`Revoke ${key.name}`} onClick={() => onRevoke(key)}>
                      Revoke
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
