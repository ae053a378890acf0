import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root.ts";
import { unavailable } from "@/server/api/trpc.ts";
import { createDashboardContext, requestIdFrom } from "@/server/auth/session-context.ts";
import { WORKSPACE_HEADER } from "@/server/auth/workspace-header.ts";
import { AppError } from "@/server/lib/errors.ts";
import { log } from "@/server/lib/log.ts";

// tRPC for the dashboard, authenticated by the session cookie. Public API keys are never
// accepted here: the REST facade (/api/v1) is their only door.

/**
 * Cookie-authenticated changes must come from our own pages: the dashboard always posts
 * JSON, which a cross-site form cannot send without a CORS preflight (never granted here).
 * The session cookie is SameSite=Lax as well.
 */
function isForeignPost(req: Request): boolean {
  if (req.method !== "POST") return false;
  const type = req.headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase();
  return type !== "application/json" || req.headers.get("sec-fetch-site") === "cross-site";
}

async function handler(req: Request): Promise<Response> {
  if (isForeignPost(req)) return Response.json({ error: "Cross-site request refused." }, { status: 403 });
  const requestId = requestIdFrom(req.headers);
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    // The session and membership checks read the database: one that cannot be reached is a 503.
    createContext: () =>
      createDashboardContext(req.headers.get(WORKSPACE_HEADER), requestId).catch((err: unknown) => {
        throw unavailable(err) ?? err;
      }),
    onError: ({ error, path }) => {
      if (error.code === "SERVICE_UNAVAILABLE") {
        log().warn({ err: error.cause ?? error, requestId, path }, "database unreachable");
        return;
      }
      if (error.code !== "INTERNAL_SERVER_ERROR" || error.cause instanceof AppError) return;
      log().error({ err: error.cause ?? error, requestId, path }, "dashboard procedure failed");
    },
  });
}

export { handler as GET, handler as POST };
