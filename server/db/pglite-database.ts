import type { PGlite } from "@electric-sql/pglite";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.ts";
import type { Database, Handle } from "./client.ts";
import { PRISMA_TRANSACTIONS, REPLAN_MS } from "./waits.ts";

/** A Database over an open PGlite (the embedded store, or an in-memory one in tests). */
export function pgliteDatabase(client: PGlite, release: () => void = () => {}, dataDir?: string): Database {
  let stopServing: (() => Promise<void>) | undefined;
  const adapter = new PrismaPGlite(client) as unknown as SqlMigrationAwareDriverAdapterFactory;
  const prisma = new PrismaClient({ adapter, transactionOptions: PRISMA_TRANSACTIONS });
  // The store's one session makes its plans again every REPLAN_MS, before a statement or a
  // transaction begins (it has no autovacuum whose statistics would).
  let planned = Date.now();
  const replan = async () => {
    if (Date.now() - planned < REPLAN_MS) return;
    planned = Date.now();
    await client.exec("DISCARD PLANS");
  };
  return {
    engine: "pglite",
    shared: false,
    serve: dataDir
      ? async () => {
          const { canServe, serveStore } = await import("./store-server.ts");
          if (canServe(dataDir)) stopServing ??= await serveStore(client, dataDir);
        }
      : undefined,
    prisma,
    migrationTarget: { pglite: client },
    query: async <T>(text: string, values: unknown[] = []) => {
      await replan();
      return (await client.query<T>(text, values)).rows;
    },
    transaction: async <T>(fn: (tx: Handle) => Promise<T>) => {
      await replan();
      return client.transaction((tx) => fn(async <R>(text: string, values: unknown[] = []) => (await tx.query<R>(text, values)).rows));
    },
    async close() {
      await stopServing?.();
      await prisma.$disconnect();
      await client.close();
      release();
    },
  };
}
