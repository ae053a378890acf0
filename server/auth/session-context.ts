import { getServerSession } from "next-auth";
import { z } from "zod";
import type { Context, NonMember } from "../api/trpc.ts";
import { DatabaseUnreachableError, db, type Database } from "../db/client.ts";
import type { Caller } from "../lib/caller.ts";
import { env } from "../lib/env.ts";
import { randomBase62 } from "../lib/ids.ts";
import { authOptions } from "./options.ts";

// The dashboard's side of the tRPC context: the session cookie gives the user, the workspace
// header (or the page's URL) names the workspace, and the user's membership gives the role.

const ZWorkspaceId = z.string().trim().min(1).max(100);
const REQUEST_ID = /^[\w.:-]{8,128}$/;

/**
 * The signed-in user's id from the session cookie (next/headers), or null. Throws a
 * connection error when the server-side session cannot be checked (the database is away).
 */
export async function sessionUserId(): Promise<string | null> {
  const session = await getServerSession(authOptions());
  if (session?.unavailable) throw new DatabaseUnreachableError("the dashboard session could not be checked");
  return session?.userId ?? null;
}

/**
 * The user as a caller acting in `workspaceId` with their role there (in `live` mode: D31)
 * when they are a member of it, otherwise as a non-member. Null when the user no longer exists.
 */
export async function userCaller(
  database: Database,
  userId: string,
  workspaceId: string | null,
): Promise<Extract<Caller, { kind: "user" }> | NonMember | null> {
  const user = await database.prisma.user.findUnique({
    where: { id: userId },
    select: {
      email: true,
      // No workspace asked for: an id no workspace has, so no membership matches.
      memberships: { where: { workspaceId: workspaceId ?? "" }, select: { role: true }, take: 1 },
    },
  });
  if (!user) return null;
  const role = user.memberships[0]?.role;
  if (!role || !workspaceId) return { kind: "user", userId, email: user.email, workspaceId: null, role: null };
  return { kind: "user", userId, email: user.email, workspaceId, mode: "live", role };
}

/** The request id the server gave this request (server/main.ts), or a new one. */
export function requestIdFrom(headers: Headers): string {
  const incoming = headers.get("request-id");
  return incoming && REQUEST_ID.test(incoming) ? incoming : `req_${randomBase62(20)}`;
}

/** The tRPC context of a dashboard request (route handler or server component). */
export async function createDashboardContext(workspace: string | null, requestId: string): Promise<Context> {
  const database = await db();
  const userId = await sessionUserId();
  const parsed = ZWorkspaceId.safeParse(workspace);
  const principal = userId ? await userCaller(database, userId, parsed.success ? parsed.data : null) : null;
  return { db: database, principal, requestId, appUrl: env().appUrl, responseHeaders: {} };
}
