import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";

/** Revocation is a row update, so it takes effect at once on every instance (D21). */
export async function revokeKey(database: Database, workspaceId: string, id: string): Promise<{ revoked: true }> {
  const { count } = await database.prisma.apiKey.updateMany({
    where: { id, workspaceId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) {
    const exists = await database.prisma.apiKey.count({ where: { id, workspaceId } });
    if (!exists) throw notFound("API key", "id");
  }
  return { revoked: true };
}
