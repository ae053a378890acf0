import type { Database } from "../db/client.ts";

/** The workspace's team for the Team page, in the order they joined. */
export async function listMembers(database: Database, workspaceId: string) {
  const rows = await database.prisma.membership.findMany({
    where: { workspaceId },
    orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
  });
  return rows.map((m) => ({
    user_id: m.user.id,
    email: m.user.email,
    name: m.user.name,
    role: m.role,
    joined_at: m.createdAt.toISOString(),
  }));
}
