import DataLoader from "dataloader";
import type { Database } from "../db/client.ts";

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
 */
export function batchedRows<T extends { id: string }>(statement: string): (database: Database, id: string) => Promise<T | undefined> {
  const loaders = new WeakMap<Database, DataLoader<string, T | undefined>>();
  return (database, id) => {
    let loader = loaders.get(database);
    if (!loader) {
      loader = new DataLoader(
        async (ids: readonly string[]) => {
          const rows = new Map((await database.query<T>(statement, [ids])).map((r) => [r.id, r]));
          return ids.map((key) => rows.get(key));
        },
        { cache: false, maxBatchSize: 200, batchScheduleFn: (run) => setImmediate(run) },
      );
      loaders.set(database, loader);
    }
    return loader.load(id);
  };
}
