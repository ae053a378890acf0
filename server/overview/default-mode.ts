import type { Database } from "../db/client.ts";
import type { KeyMode } from "../generated/prisma/enums.ts";

/**
 * The mode the dashboard shows a user who has not chosen one with the top bar's switch: live
 * once the workspace has sent a live message, test before (a workspace still being tried out
 * with test keys shows what it did, not empty pages). One row read on the
 * (workspace_id, mode, created_at, id) index.
 */
export async function defaultMode(database: Database, workspaceId: string): Promise<KeyMode> {
  const live = await database.prisma.message.findFirst({ where: { workspaceId, mode: "live" }, select: { id: true } });
  return live ? "live" : "test";
}
