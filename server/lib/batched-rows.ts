import DataLoader from "dataloader";
import type { Database } from "../db/client.ts";
import { rowsPerWorkspace } from "./per-workspace.ts";

/**
 * Reads rows by id through a statement that takes an array (`WHERE id = ANY($1::text[])`),
 * batching the lookups made in the same turn of the event loop into one query: the jobs of one
 * pipeline claim start together, so their rows arrive in one round trip, and so do those that
 * separate I/O callbacks of one turn start (each webhook answer frees its endpoint's slot for
 * the next delivery, which reads its row). The batch goes out at `setImmediate`, not at the
 * next tick as DataLoader's default, which batched only what one callback started: a backlog
 * to 10 endpoints drained at 1,839-2,227 deliveries/s with one query per delivery and
 * 3,710-3,775/s batched (`npm run bench -- webhook-deliveries`, 2 idle cores, alternated).
 * No caching: every call reads anew.
 *
 * A row of a workspace's table is looked up by its key `<workspace id> <id>` (D87: every read
 * names its workspace, and the keys lead with it), through `workspaceRows`.
 */
export function batchedRows<T extends { id: string }>(
  statement: string,
  keyOf: (row: T) => string = (row) => row.id,
  read: (database: Database, keys: readonly string[]) => Promise<T[]> = (database, keys) => database.query<T>(statement, [keys]),
): (database: Database, key: string) => Promise<T | undefined> {
  const loaders = new WeakMap<Database, DataLoader<string, T | undefined>>();
  return (database, id) => {
    let loader = loaders.get(database);
    if (!loader) {
      loader = new DataLoader(
        async (ids: readonly string[]) => {
          const rows = new Map((await read(database, ids)).map((r) => [keyOf(r), r]));
          return ids.map((key) => rows.get(key));
        },
        { cache: false, maxBatchSize: 200, batchScheduleFn: (run) => setImmediate(run) },
      );
      loaders.set(database, loader);
    }
    return loader.load(id);
  };
}

/** The key of a workspace's row for `workspaceRows`. */
export const workspaceKey = (row: { workspace_id: string; id: string }) => `${row.workspace_id} ${row.id}`;

/**
 * `batchedRows` of a workspace's table, by `workspaceKey`: `statement` reads the rows of one
 * workspace, `$1`, with the ids `$2`; a batch over several workspaces reads each in a statement
 * of its own (D87: Citus routes each to its workspace's worker).
 */
export function workspaceRows<T extends { id: string; workspace_id: string }>(statement: string) {
  return batchedRows<T>(statement, workspaceKey, (database, keys) =>
    rowsPerWorkspace(
      keys.map((k) => k.split(" ") as [string, string]),
      ([ws]) => ws,
      (ws, group) => database.query<T>(statement, [ws, group.map(([, id]) => id)]),
    ),
  );
}
