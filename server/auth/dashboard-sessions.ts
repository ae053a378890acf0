import type { Database } from "../db/client.ts";
import { newId } from "../lib/ids.ts";

// Dashboard sessions live on the server as well as in the cookie (D51): the cookie (a signed
// JWT) names a row, and is honoured only while that row is neither revoked nor expired.
// Signing out revokes the row, so a copy of the cookie taken before is refused afterwards.

export async function createSession(database: Database, userId: string, maxAgeSeconds: number): Promise<string> {
  const id = newId("session");
  const now = Date.now();
  await database.prisma.$transaction([
    database.prisma.dashboardSession.deleteMany({ where: { userId, expiresAt: { lt: new Date(now) } } }),
    database.prisma.dashboardSession.create({ data: { id, userId, expiresAt: new Date(now + maxAgeSeconds * 1000) } }),
  ]);
  return id;
}

/** Whether `sessionId` names a live session of `userId`. */
export async function isSessionActive(database: Database, sessionId: unknown, userId: unknown): Promise<boolean> {
  if (typeof sessionId !== "string" || typeof userId !== "string") return false;
  const found = await database.prisma.dashboardSession.findFirst({
    where: { id: sessionId, userId, revokedAt: null, expiresAt: { gt: new Date() } },
    select: { id: true },
  });
  return found !== null;
}

export async function revokeSession(database: Database, sessionId: unknown): Promise<void> {
  if (typeof sessionId !== "string") return;
  await database.prisma.dashboardSession.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: new Date() } });
}
