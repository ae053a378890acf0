import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { appRouter } from "@/server/api/root.ts";
import { createCallerFactory, type UserPrincipal } from "@/server/api/trpc.ts";
import { createDashboardContext, requestIdFrom } from "@/server/auth/session-context.ts";

// Server components' access to the dashboard: the same context and procedures as /api/trpc,
// once per request (React cache).

const createCaller = createCallerFactory(appRouter);

export const dashboardContext = cache(async (workspace: string | null) =>
  createDashboardContext(workspace, requestIdFrom(await headers())),
);

/** A caller of the shared router acting as the signed-in user, for server components. */
export async function dashboardCaller(workspace: string | null) {
  return createCaller(await dashboardContext(workspace));
}

export function signInPath(callbackUrl?: string): string {
  return callbackUrl ? `/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/sign-in";
}

type Member = UserPrincipal & { workspaceId: string; role: "admin" | "support" };

/**
 * The signed-in member of `workspace`: signed-out visitors go to the sign-in page, and a
 * workspace the user is not a member of does not exist for them (404).
 */
export const requireMember = cache(async (workspace: string): Promise<Member> => {
  const { principal } = await dashboardContext(workspace);
  if (principal?.kind !== "user") redirect(signInPath(`/w/${encodeURIComponent(workspace)}`));
  if (!principal.workspaceId || !principal.role) notFound();
  return { ...principal, workspaceId: principal.workspaceId, role: principal.role };
});
