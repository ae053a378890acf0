import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root.ts";
import { unavailable } from "@/server/api/trpc.ts";
import { crossSiteRefusal } from "@/server/auth/cross-site.ts";
import { createDashboardContext, requestIdFrom } from "@/server/auth/session-context.ts";
import { WORKSPACE_HEADER } from "@/server/auth/workspace-header.ts";
import { env } from "@/server/lib/env.ts";
import { AppError } from "@/server/lib/errors.ts";
import { log } from "@/server/lib/log.ts";

// tRPC for the dashboard, authenticated by the session cookie. Public API keys are never
// accepted here: the REST facade (/api/v1) is their only door.

async function handler(req: Request): Promise<Response> {
  const refused = crossSiteRefusal(req.method, req.headers, env().appUrl);
  const requestId = requestIdFrom(req.headers);
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    // A refused request is answered by tRPC itself (403 FORBIDDEN in its error shape, batched
    // or not) from createContext, with a JSON content type so tRPC reaches it; its body is
    // never read.
    req: refused ? new Request(req.url, { method: req.method, headers: { "content-type": "application/json" } }) : req,
    router: appRouter,
    // The session and membership checks read the database: one that cannot be reached is a 503.
    createContext: () => {
      if (refused) throw new TRPCError({ code: "FORBIDDEN", message: refused });
      return createDashboardContext(req.headers.get(WORKSPACE_HEADER), requestId).catch((err: unknown) => {
        throw unavailable(err) ?? err;
      });
    },
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
