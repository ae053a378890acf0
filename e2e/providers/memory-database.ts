import { PGlite } from "@electric-sql/pglite";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { Database } from "../../server/db/client.ts";
import { applyMigrations } from "../../server/db/migrate.ts";
import { PrismaClient } from "../../server/generated/prisma/client.ts";

/** A fresh in-memory PGlite with every migration applied, shaped like the server's `Database`. */
export async function memoryDatabase(): Promise<Database> {
  const client = await PGlite.create();
  const adapter = new PrismaPGlite(client) as unknown as SqlMigrationAwareDriverAdapterFactory;
  await applyMigrations(adapter);
  const prisma = new PrismaClient({ adapter });
  return {
    engine: "pglite",
    prisma,
    adapter,
    query: async <T>(text: string, values: unknown[]) => (await client.query<T>(text, values)).rows,
    async close() {
      await prisma.$disconnect();
      await client.close();
    },
  };
}
