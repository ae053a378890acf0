import DataLoader from "dataloader";
import type { Database } from "../db/client.ts";

/**
 * Reads rows by id through a statement that takes an array (`WHERE id = ANY($1::text[])`),
 * batching the lookups made in the same tick into one query: the jobs of one pipeline claim
 * start together, so their rows arrive in one round trip. No caching: every call reads anew.
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
        { cache: false, maxBatchSize: 200 },
      );
      loaders.set(database, loader);
    }
    return loader.load(id);
  };
}
