import type { Database, Handle } from "../db/client.ts";
import type { Mode } from "../keys/scopes.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { normalizeEmail } from "../lib/email.ts";
import { invalid, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { listPage, type PageQuery } from "../lib/pagination.ts";
import { insertSuppressions } from "./insert-suppressions.ts";
import { suppressionView, type Suppression, type SuppressionRow } from "./suppression-schemas.ts";

// D72, D85: a workspace's suppression list, per mode (a key's; the dashboard's is live). The
// send path reads it with the recipient (get-contact.ts `lookUpRecipient`), reports write it
// with the message's change (apply-report.ts); here: list, add by hand, remove.

type Owner = Pick<CallerInWorkspace, "workspaceId" | "mode">;

// `reason` as the driver reads an enum, as text: a cast (not immutable) is refused by Citus in
// a DELETE's RETURNING (D87).
const COLUMNS = `email, reason, message_id, detail, created_at`;

/**
 * GET /suppressions (D10 order; D85: `after` is an address of the list). `search`, for the
 * dashboard, keeps the addresses containing it (any case).
 */
export async function listSuppressions(
  database: Database,
  owner: Owner,
  query: PageQuery & { reason?: Suppression["reason"]; search?: string },
  url: string | null,
): Promise<{ items: Suppression[]; link: string | null; next: string | null }> {
  const base = [owner.workspaceId, owner.mode, query.reason ?? null, query.search ? `%${escapeLike(query.search.toLowerCase())}%` : null];
  const filter = `workspace_id = $1 AND mode = $2::"KeyMode" AND ($3::text IS NULL OR reason = $3::"SuppressionReason") AND ($4::text IS NULL OR email_key LIKE $4)`;
  const { items, link, next } = await listPage<SuppressionRow & { id: string }>(
    query,
    url,
    async (email) => {
      const [row] = await database.query<{ created_at: Date; id: string }>(
        `SELECT created_at, id FROM suppressions WHERE workspace_id = $1 AND mode = $2::"KeyMode" AND email_key = lower($3)`,
        [owner.workspaceId, owner.mode, email],
      );
      return row ? { createdAt: row.created_at, id: row.id } : null;
    },
    async (_where, take, cursor) => {
      const rows = await database.query<SuppressionRow & { sid: string }>(
        `SELECT ${COLUMNS}, id AS sid FROM suppressions WHERE ${filter}
         AND ($5::timestamptz IS NULL OR (created_at, id) > ($5, $6)) ORDER BY created_at, id LIMIT $7`,
        [...base, cursor?.createdAt ?? null, cursor?.id ?? null, take],
      );
      // The page's cursor (`after`) is the address (D85).
      return rows.map((r) => ({ ...r, id: r.email }));
    },
  );
  return { items: items.map(suppressionView), link, next };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * POST /suppressions (D85): `reason` `manual` only. A new entry answers `created: true` (201);
 * an address already suppressed answers its existing entry (200), unchanged.
 */
export async function addSuppression(
  database: Database,
  owner: Owner,
  input: { email: string; reason?: string },
): Promise<{ suppression: Suppression; created: boolean }> {
  const email = normalizeEmail(input.email, "email");
  if (input.reason !== undefined && input.reason !== "manual") {
    throw invalid("parameter_invalid", "reason: only `manual` can be given; bounces and complaints are added by the service.", "reason");
  }
  const [inserted] = await database.query<SuppressionRow>(
    insertSuppressions(`VALUES ($1, $2, $3, $4, 'manual', NULL::text, NULL::text, now())`),
    [newId("suppression"), owner.workspaceId, owner.mode, email],
  );
  if (inserted) return { suppression: suppressionView(inserted), created: true };
  return { suppression: await getSuppression(database, owner, email), created: false };
}

async function getSuppression(database: Database, owner: Owner, email: string): Promise<Suppression> {
  const [row] = await database.query<SuppressionRow>(
    `SELECT ${COLUMNS} FROM suppressions WHERE workspace_id = $1 AND mode = $2::"KeyMode" AND email_key = lower($3)`,
    [owner.workspaceId, owner.mode, email],
  );
  if (!row) throw notFound("suppression", "email");
  return suppressionView(row);
}

/** DELETE /suppressions/{email}: the entry removed; an address not suppressed is a 404. */
export async function removeSuppression(database: Database, owner: Owner, given: string): Promise<Suppression> {
  // What is not an address is not on the list either.
  let email: string;
  try {
    email = normalizeEmail(given, "email");
  } catch {
    throw notFound("suppression", "email");
  }
  const [row] = await database.query<SuppressionRow>(
    `DELETE FROM suppressions WHERE workspace_id = $1 AND mode = $2::"KeyMode" AND email_key = lower($3) RETURNING ${COLUMNS}`,
    [owner.workspaceId, owner.mode, email],
  );
  if (!row) throw notFound("suppression", "email");
  return suppressionView(row);
}

/** Whether an address is on the live list: a flow's live send step asks inside its run's transaction. */
export async function isSuppressed(sql: Handle, workspaceId: string, mode: Mode, email: string): Promise<string | null> {
  const [row] = await sql<{ reason: string }>(
    `SELECT reason::text AS reason FROM suppressions WHERE workspace_id = $1 AND mode = $2::"KeyMode" AND email_key = lower($3)`,
    [workspaceId, mode, email],
  );
  return row?.reason ?? null;
}
