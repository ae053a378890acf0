// The suppressions table's one INSERT (D72): a bounce or complaint report (apply-report.ts), a
// manual entry (suppressions.ts). An address already suppressed in that workspace and mode
// keeps its first entry (D59: matched case-insensitively, kept as first given).

/**
 * The INSERT of the entries given by `rows` (a `SELECT` or `VALUES` with the columns `id,
 * workspace_id, mode, email, reason, message_id, detail, created_at`, the enums as text), a
 * whole statement or a CTE of a larger one; returns the rows it wrote.
 */
export function insertSuppressions(rows: string): string {
  return `INSERT INTO suppressions (id, workspace_id, mode, email, email_key, reason, message_id, detail, created_at)
    SELECT r.id, r.workspace_id, r.mode::"KeyMode", r.email, lower(r.email), r.reason::"SuppressionReason", r.message_id, r.detail, r.created_at
    FROM (${rows}) AS r(id, workspace_id, mode, email, reason, message_id, detail, created_at)
    ON CONFLICT (workspace_id, mode, email_key) DO NOTHING
    RETURNING *`;
}
