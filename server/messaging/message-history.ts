// A message's history (D8: statuses, provider requests, replies and reports, retries): the
// table's one INSERT. Its entries are written by the statements that change the message (its
// acceptance, dispatch, a report, an inbound message), each as one part of that statement.

/**
 * The INSERT of history entries given by `rows`, a `VALUES` list or a `SELECT`, with the
 * columns `workspace_id, message_id, at, kind, status ("MessageStatus", or NULL), detail (jsonb)`:
 * a whole statement, or a CTE of a larger one. Every row names its workspace (D87).
 */
export function insertHistory(rows: string): string {
  return `INSERT INTO message_history (workspace_id, message_id, at, kind, status, detail) ${rows}`;
}
