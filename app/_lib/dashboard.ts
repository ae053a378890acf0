import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { appRouter } from "@/server/api/root.ts";
import { createCallerFactory } from "@/server/api/trpc.ts";
import { createDashboardContext, requestIdFrom } from "@/server/auth/session-context.ts";
import type { Caller } from "@/server/lib/caller.ts";

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

/**
 * The signed-in member of `workspace`: signed-out visitors go to the sign-in page, and a
 * workspace the user is not a member of does not exist for them (404).
 */
export const requireMember = cache(async (workspace: string): Promise<Extract<Caller, { kind: "user" }>> => {
  const { principal } = await dashboardContext(workspace);
  if (principal?.kind !== "user") redirect(signInPath(`/w/${encodeURIComponent(workspace)}`));
  if (principal.workspaceId === null) notFound();
  return principal;
});
