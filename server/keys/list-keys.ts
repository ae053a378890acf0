import type { Database } from "../db/client.ts";

export async function listKeys(database: Database, workspaceId: string) {
  return database.prisma.apiKey.findMany({
    where: { workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      name: true,
      mode: true,
      prefix: true,
      lastFour: true,
      scopes: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
    },
  });
}
