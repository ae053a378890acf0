import { headers } from "next/headers";
import { ZMessageSearch } from "@/server/api/routers/messages/search-messages.types.ts";
import { createDashboardContext, requestIdFrom } from "@/server/auth/session-context.ts";
import { messagesCsv } from "@/server/messaging/messages-csv.ts";

// GET /w/<workspace>/messages/export?q=…&status=…: the inspector's filtered list as CSV, for
// every member of the workspace (admins and support staff read messages alike). The rows are
// read page by page and streamed, at most EXPORT_CAP of them (the page says so).

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ workspace: string }> }) {
  const { workspace } = await params;
  const context = await createDashboardContext(workspace, requestIdFrom(await headers()));
  const principal = context.principal;
  if (principal?.kind !== "user") return new Response("Sign in first.\n", { status: 401, headers: { "content-type": "text/plain" } });
  if (!principal.workspaceId) return new Response("Not found.\n", { status: 404, headers: { "content-type": "text/plain" } });
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const filter = ZMessageSearch.safeParse(query);
  if (!filter.success) {
    return new Response(`Invalid filter: ${filter.error.issues.map((i) => i.path.join(".")).join(", ")}\n`, {
      status: 400,
      headers: { "content-type": "text/plain" },
    });
  }
  const day = new Date().toISOString().slice(0, 10);
  return new Response(messagesCsv(context.db, principal.workspaceId, filter.data), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="messages-${workspace.replace(/[^\w.-]/g, "_")}-${day}.csv"`,
      "cache-control": "no-store",
    },
  });
}
