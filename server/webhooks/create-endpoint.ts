import type { Caller } from "../lib/caller.ts";
import { recordAudit, urlForAudit } from "../audit/record-audit.ts";
import type { Database } from "../db/client.ts";
import { conflict } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { checkEndpointUrl } from "./endpoint-url.ts";
import { generateSecret, sealSecret } from "./endpoint-secret.ts";
import { ENDPOINT_SELECT, endpointView, ZCreateEndpointRequest, type CreateEndpointRequest } from "./webhook-schemas.ts";

/**
 * D99: the most endpoints a workspace holds, so that every event fans out to a bounded number
 * of deliveries and every list of endpoints is one page.
 */
export const MAX_ENDPOINTS = 50;

// The endpoint ($1 to $5) with its sealed secret ($6), unless the workspace already has $7.
const INSERT_UNDER_LIMIT = `
  WITH n AS (SELECT count(*)::int AS n FROM webhook_endpoints WHERE workspace_id = $2),
  e AS (
    INSERT INTO webhook_endpoints (id, workspace_id, url, description, events)
    SELECT $1, $2, $3, $4, $5::text[] FROM n WHERE n.n < $7 RETURNING id
  ),
  s AS (INSERT INTO webhook_secrets (workspace_id, endpoint_id, secret) SELECT $2, id, $6 FROM e)
  SELECT (SELECT count(*) FROM e)::int AS created`;

/**
 * Registers an endpoint (D30). The secret is in this answer and nowhere else, ever. The 51st of
 * a workspace is refused (D99: `409 limit_reached`); the workspace's row is held while counting,
 * so two registrations at once cannot both take the last place.
 */
export async function createEndpoint(database: Database, workspaceId: string, request: CreateEndpointRequest, actor: Caller) {
  const input = ZCreateEndpointRequest.parse(request);
  const url = await checkEndpointUrl(input.url);
  const secret = generateSecret();
  const events = [...new Set(input.events ?? [])];
  const id = newId("webhook");
  await database.transaction(async (sql) => {
    // The workspace's row first, then, in a statement that sees every registration committed
    // while it waited, the count and the new endpoint with its secret.
    await sql(`SELECT id FROM workspaces WHERE id = $1 FOR NO KEY UPDATE`, [workspaceId]);
    const [added] = await sql<{ created: number }>(INSERT_UNDER_LIMIT, [
      id,
      workspaceId,
      url,
      input.description || null,
      events,
      sealSecret(secret),
      MAX_ENDPOINTS,
    ]);
    if (!added?.created) {
      throw conflict(
        "limit_reached",
        `This workspace already has ${MAX_ENDPOINTS} webhook endpoints, the most it may hold. Delete one before adding another.`,
      );
    }
    await recordAudit(sql, actor, {
      workspaceId,
      action: "webhook.created",
      target: { type: "webhook", id },
      detail: { url: urlForAudit(url), events },
    });
  });
  const row = await database.prisma.webhookEndpoint.findUniqueOrThrow({
    where: { workspaceId_id: { workspaceId, id } },
    select: ENDPOINT_SELECT,
  });
  return { id: row.id, secret, endpoint: endpointView(row) };
}
