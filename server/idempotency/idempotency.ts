import type { Database } from "../db/client.ts";
import type { Mode } from "../keys/scopes.ts";

// Idempotency records (D27, D28). A record is claimed before the request runs, so a second
// request with the same key waits for nothing: it sees `in_progress` and gets 409 at once.

export const RETENTION_HOURS = 24;
/** A claim older than this whose request never finished (a crashed process) may be taken over. */
export const STALE_CLAIM_SECONDS = 60;

export type IdempotencyScope = { workspaceId: string; mode: Mode; method: string; path: string; key: string };

export type StoredResponse = { status: number; body: string; headers: Record<string, string> };

export type Claim = { kind: "claimed" } | { kind: "replay"; response: StoredResponse } | { kind: "in_progress" } | { kind: "mismatch" };

type Row = {
  claimed: boolean;
  body_hash: string;
  status: string;
  response_status: number | null;
  response_body: string | null;
  response_headers: unknown;
};

// Statements sent straight to the driver: every idempotent POST runs two of them.
const CLAIM = `
  WITH ins AS (
    INSERT INTO idempotency_records (workspace_id, mode, method, path, key, body_hash, status, expires_at)
    VALUES ($1, $2::"KeyMode", $3, $4, $5, $6, 'in_progress', now() + make_interval(hours => ${RETENTION_HOURS}))
    ON CONFLICT (workspace_id, mode, method, path, key) DO UPDATE
      SET body_hash = EXCLUDED.body_hash, status = 'in_progress', created_at = now(), expires_at = EXCLUDED.expires_at,
          response_status = NULL, response_body = NULL, response_headers = NULL
      WHERE idempotency_records.expires_at < now()
         OR (idempotency_records.status = 'in_progress' AND idempotency_records.body_hash = EXCLUDED.body_hash
             AND idempotency_records.created_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}))
    RETURNING body_hash
  )
  SELECT true AS claimed, body_hash, 'in_progress' AS status, NULL::int AS response_status, NULL AS response_body, NULL::jsonb AS response_headers FROM ins
  UNION ALL
  SELECT false, body_hash, status, response_status, response_body, response_headers FROM idempotency_records
  WHERE workspace_id = $1 AND mode = $2::"KeyMode" AND method = $3 AND path = $4 AND key = $5 AND NOT EXISTS (SELECT 1 FROM ins)`;

const COMPLETE = `
  UPDATE idempotency_records SET status = 'done', response_status = $6, response_body = $7, response_headers = $8::jsonb
  WHERE workspace_id = $1 AND mode = $2::"KeyMode" AND method = $3 AND path = $4 AND key = $5`;

const RELEASE = `
  DELETE FROM idempotency_records
  WHERE workspace_id = $1 AND mode = $2::"KeyMode" AND method = $3 AND path = $4 AND key = $5 AND status = 'in_progress'`;

const params = (s: IdempotencyScope) => [s.workspaceId, s.mode, s.method, s.path, s.key];

/**
 * One statement: insert the claim, or take over an expired record or a stale claim with the
 * same body; otherwise return the existing row untouched. Concurrent callers serialize on the
 * primary key, so exactly one of them gets `claimed`.
 */
export async function claimIdempotencyKey(database: Database, scope: IdempotencyScope, bodyHash: string): Promise<Claim> {
  const [row] = await database.query<Row>(CLAIM, [...params(scope), bodyHash]);
  if (!row) return { kind: "in_progress" }; // the conflicting row's insert is not visible yet
  if (row.claimed) return { kind: "claimed" };
  if (row.body_hash !== bodyHash) return { kind: "mismatch" };
  if (row.status !== "done" || row.response_status === null) return { kind: "in_progress" };
  return {
    kind: "replay",
    response: {
      status: row.response_status,
      body: row.response_body ?? "",
      headers: (row.response_headers ?? {}) as Record<string, string>,
    },
  };
}

export async function completeIdempotencyKey(database: Database, scope: IdempotencyScope, response: StoredResponse): Promise<void> {
  await database.query(COMPLETE, [...params(scope), response.status, response.body, JSON.stringify(response.headers)]);
}

/** The response is not kept (5xx, 401, 403, 429: D28): the client may retry with the key. */
export async function releaseIdempotencyKey(database: Database, scope: IdempotencyScope): Promise<void> {
  await database.query(RELEASE, params(scope));
}

/** D28: 2xx and 4xx are kept, except 401, 403 and 429 (and the in-progress 409, never claimed). */
export function isStorable(status: number): boolean {
  if (status >= 500 || status < 200) return false;
  return status !== 401 && status !== 403 && status !== 429;
}
