import { isConnectionError, type Database, type Handle } from "../db/client.ts";
import type { Mode } from "../keys/scopes.ts";
import { conflict } from "../lib/errors.ts";
import { env } from "../lib/env.ts";
import { groupCommitEach } from "../lib/group-commit.ts";
import { jsonRows } from "../db/json-rows.ts";
import type { Columns } from "../db/rows.ts";

// Idempotency records (D27, D28, D46). A record is claimed before the request runs, so a second
// request with the same key waits for nothing: it sees `in_progress` and gets 409 at once.
// A request that writes something (a message, a run) stores its response in the transaction
// that writes it (`IdempotentEffect`): the effect and the stored response commit together, so
// a claim still `in_progress` after a crash means the first attempt committed nothing, and
// only such a claim is taken over once it is older than IDEMPOTENCY_CLAIM_SECONDS (at most 60).
// Every write after the claim is fenced by the claim's `created_at`: a request whose claim was
// taken over can no longer complete, release or commit its effect.

export const RETENTION_HOURS = 24;

export type IdempotencyScope = { workspaceId: string; mode: Mode; method: string; path: string; key: string };

export type StoredResponse = { status: number; body: string; headers: Record<string, string> };

/** The claim a request holds; `claimedAt` fences its later writes. */
export type HeldClaim = { scope: IdempotencyScope; claimedAt: Date };

export type Claim =
  { kind: "claimed"; held: HeldClaim } | { kind: "replay"; response: StoredResponse } | { kind: "in_progress" } | { kind: "mismatch" };

type Row = Columns<
  "idempotency_records",
  "created_at" | "body_hash" | "status" | "response_status" | "response_body" | "response_headers"
> & {
  claimed: boolean;
};

// The claims of many requests in one statement (each answered by its `i`), in key order so
// that two such statements over the same keys never deadlock: each key is inserted as a new
// claim, or takes over an expired record or a stale claim with the same body; otherwise its
// existing row is returned untouched. A key in a batch once: the batch is deduplicated first.
// The clock of the conflict's test and update is the new row's `created_at` (now()), and the
// claim's age a number in the text: Citus (D87) takes only immutable functions there (no now(),
// no timestamp minus an interval) and loses a parameter's value in that clause.
const SCOPE = "(workspace_id, mode, method, path, key)";
const claims = (staleSeconds: number) => `
  WITH c AS (
    SELECT * FROM ${jsonRows("$1", `i int, workspace_id text, mode "KeyMode", method text, path text, key text, body_hash text`)} AS c
  ),
  ins AS (
    INSERT INTO idempotency_records (workspace_id, mode, method, path, key, body_hash, status, created_at, expires_at)
    SELECT workspace_id, mode, method, path, key, body_hash, 'in_progress', now(), now() + make_interval(hours => ${RETENTION_HOURS})
    FROM c ORDER BY workspace_id, mode, method, path, key
    ON CONFLICT ${SCOPE} DO UPDATE
      SET body_hash = EXCLUDED.body_hash, status = 'in_progress', created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
          response_status = NULL, response_body = NULL, response_headers = NULL
      WHERE idempotency_records.expires_at < EXCLUDED.created_at
         OR (idempotency_records.status = 'in_progress' AND idempotency_records.body_hash = EXCLUDED.body_hash
             AND EXCLUDED.created_at - idempotency_records.created_at > make_interval(secs => ${Number(staleSeconds)}))
    RETURNING workspace_id, mode, method, path, key, body_hash, created_at
  )
  SELECT c.i, true AS claimed, ins.created_at, ins.body_hash, 'in_progress' AS status,
         NULL::int AS response_status, NULL AS response_body, NULL::jsonb AS response_headers
  FROM c JOIN ins ON (ins.workspace_id, ins.mode, ins.method, ins.path, ins.key) = (c.workspace_id, c.mode, c.method, c.path, c.key)
  UNION ALL
  SELECT c.i, false, r.created_at, r.body_hash, r.status, r.response_status, r.response_body, r.response_headers
  FROM c JOIN idempotency_records r ON (r.workspace_id, r.mode, r.method, r.path, r.key) = (c.workspace_id, c.mode, c.method, c.path, c.key)
  WHERE NOT EXISTS (
    SELECT 1 FROM ins WHERE (ins.workspace_id, ins.mode, ins.method, ins.path, ins.key) = (c.workspace_id, c.mode, c.method, c.path, c.key)
  )`;

/**
 * The UPDATE that stores the responses of held claims, given as a JSON array of `Completion`s
 * in parameter `param`: each only while its claim is still the request's (`claimed_at`
 * fences it). Returns the `ref` of each one stored. A part of larger statements too: accepted
 * messages and their stored responses commit in one (`insertMessages`).
 */
export function completeClaims(param: string, when = "true", workspace?: string): string {
  return `
  UPDATE idempotency_records r SET status = 'done', response_status = c.status, response_body = c.body, response_headers = c.headers
  FROM ${jsonRows(param, COMPLETION_COLUMNS)} AS c
  WHERE ${workspace ? `r.workspace_id = ${workspace} AND ` : ""}${STILL_HELD} AND ${when}
  RETURNING c.ref`;
}

/**
 * The `ref` of each `Completion` in parameter `param` whose claim is still the request's, its
 * row locked until the statement's transaction ends: a statement that decides what to write
 * by it (`insertMessages`) can then store the responses of what it writes (`completeClaims`)
 * without the claim being taken over in between. `workspace`, the parameter of the one
 * workspace the claims belong to (D87: a locking read names it, for Citus to route it; so does
 * `completeClaims`' when given).
 */
export function heldClaims(param: string, workspace: string): string {
  // The lock in a subquery, the refs selected around it: Citus plans a statement that it cannot
  // send whole to one worker (one that calls count_live_messages) in parts, and read the
  // result of a part whose own list ends in FOR UPDATE as text where it had been written in
  // binary ("invalid byte sequence for encoding UTF8: 0xff"). Same rows, same locks.
  return `SELECT ref FROM (SELECT c.ref FROM ${jsonRows(param, COMPLETION_COLUMNS)} AS c JOIN idempotency_records r ON r.workspace_id = ${workspace} AND ${STILL_HELD} FOR UPDATE OF r) held_refs`;
}

const COMPLETION_COLUMNS = `ref text, workspace_id text, mode "KeyMode", method text, path text, key text, claimed_at timestamptz, status int, body text, headers jsonb`;
const STILL_HELD = `r.workspace_id = c.workspace_id AND r.mode = c.mode AND r.method = c.method AND r.path = c.path AND r.key = c.key
    AND r.status = 'in_progress' AND r.created_at = c.claimed_at`;

/** One response to store for a held claim; `ref` names it in what `completeClaims` returns. */
export type Completion = ReturnType<typeof completion>;

export function completion(held: HeldClaim, response: StoredResponse, ref = "") {
  const { workspaceId, mode, method, path, key } = held.scope;
  const { status, body, headers } = response;
  return { ref, workspace_id: workspaceId, mode, method, path, key, claimed_at: held.claimedAt, status, body, headers };
}

const COMPLETE = completeClaims("$1", "true", "$2");

const RELEASE = `
  DELETE FROM idempotency_records
  WHERE workspace_id = $1 AND mode = $2::"KeyMode" AND method = $3 AND path = $4 AND key = $5
    AND status = 'in_progress' AND created_at = $6`;

const params = (s: IdempotencyScope) => [s.workspaceId, s.mode, s.method, s.path, s.key];

type Ask = { scope: IdempotencyScope; bodyHash: string };
const scopeKey = (s: IdempotencyScope) => JSON.stringify([s.workspaceId, s.mode, s.method, s.path, s.key]);

// The claims of one batch; two asks with the same key: the second gets the first's row, unclaimed.
const claim = groupCommitEach(
  async (database: Database, asks: readonly Ask[]): Promise<(Row | undefined)[]> => {
    const first = new Map<string, number>();
    const unique: Record<string, unknown>[] = [];
    asks.forEach(({ scope, bodyHash }, i) => {
      if (first.has(scopeKey(scope))) return;
      first.set(scopeKey(scope), i);
      const { workspaceId, mode, method, path, key } = scope;
      unique.push({ i, workspace_id: workspaceId, mode, method, path, key, body_hash: bodyHash });
    });
    const rows = await database.query<Row & { i: number }>(claims(env().idempotencyClaimSeconds), [JSON.stringify(unique)]);
    const byIndex = new Map(rows.map((r) => [Number(r.i), r]));
    return asks.map((a, i) => {
      const j = first.get(scopeKey(a.scope))!;
      const row = byIndex.get(j);
      return j === i || !row ? row : { ...row, claimed: false };
    });
  },
  { alone: (err) => !isConnectionError(err) },
);

/**
 * Claims the key for this request, or says why not. Concurrent callers serialize on the
 * primary key, so exactly one of them gets `claimed`; the claims of requests that arrive
 * while one is in flight share the next statement (`groupCommit`). Two requests of one batch
 * with the same key: the second sees the first's row, as if it had come just after it.
 */
export async function claimIdempotencyKey(database: Database, scope: IdempotencyScope, bodyHash: string): Promise<Claim> {
  const row = await claim(database, { scope, bodyHash });
  if (!row) return { kind: "in_progress" }; // the conflicting row's insert is not visible yet
  if (row.claimed) return { kind: "claimed", held: { scope, claimedAt: new Date(row.created_at) } };
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

/** Stores the response while the claim is still this request's; false when it was taken over. */
export async function completeIdempotencyKey(sql: Handle, held: HeldClaim, response: StoredResponse): Promise<boolean> {
  return (await completeClaimsOf(sql, [completion(held, response)])).size > 0;
}

/**
 * Stores many responses, each while its claim is still its request's; the `ref`s stored. One
 * statement per workspace (D87: a write names its workspace, for Citus to route it to one
 * shard), so one statement for the batches of one workspace that callers give.
 */
export async function completeClaimsOf(sql: Handle, completions: Completion[]): Promise<Set<string>> {
  const byWorkspace = new Map<string, Completion[]>();
  for (const c of completions) byWorkspace.set(c.workspace_id, [...(byWorkspace.get(c.workspace_id) ?? []), c]);
  const stored = new Set<string>();
  for (const [workspace, of] of byWorkspace)
    for (const r of await sql<{ ref: string }>(COMPLETE, [JSON.stringify(of), workspace])) stored.add(r.ref);
  return stored;
}

/** The response is not kept (5xx, 401, 403, 429: D28): the client may retry with the key. */
export async function releaseIdempotencyKey(sql: Handle, held: HeldClaim): Promise<void> {
  await sql(RELEASE, [...params(held.scope), held.claimedAt]);
}

/** D28: 409 while another request holds the key (or has taken over this request's claim). */
export const keyInUse = () =>
  conflict("idempotency_key_in_use", "A request with this Idempotency-Key is still in progress. Retry in a moment.", "Idempotency-Key");

/**
 * What a service that writes an effect (a message, a run) receives from the REST edge: it
 * stores `completion(ref, response)` in the transaction that writes the effect (with
 * `completeClaims` or `completeClaimsOf`), so the stored response and the effect commit
 * together (D46). Its writer returns whether it stored the response, and the service passes
 * that on with `stored()`; the edge stores (or releases) any other outcome itself. A claim
 * taken over meanwhile (this request outlived IDEMPOTENCY_CLAIM_SECONDS) is not stored, and the
 * effect is not written.
 */
export class IdempotentEffect {
  #stored = false;
  constructor(
    private readonly held: HeldClaim,
    private readonly status: number,
  ) {}

  /** The response to store, named `ref` in what `completeClaims` returns. */
  completion(ref: string, body: unknown): Completion {
    return completion(this.held, this.response(body), ref);
  }

  /** The service's word that the response of `completion` committed with its effect. */
  stored(): void {
    this.#stored = true;
  }

  /** Whether the service stored the response with its effect (`stored`): then the edge stores nothing. */
  get storedWithEffect(): boolean {
    return this.#stored;
  }

  private response(body: unknown): StoredResponse {
    return { status: this.status, body: JSON.stringify(body), headers: {} };
  }
}

/** D28: 2xx and 4xx are kept, except 401, 403 and 429 (and the in-progress 409, never claimed). */
export function isStorable(status: number): boolean {
  if (status >= 500 || status < 200) return false;
  return status !== 401 && status !== 403 && status !== 429;
}
