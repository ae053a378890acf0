import type { Database } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { notFound } from "../lib/errors.ts";
import { listPage, NEWEST_FIRST, type Cursor } from "../lib/pagination.ts";
import { eventBody } from "./event-body.ts";
import { ZDeliveryId, ZListDeliveriesRequest } from "./webhook-schemas.ts";
import type { z } from "zod";

// The delivery log of an endpoint (D33): admins and support staff read it, newest first.

const ATTEMPT_SELECT = { at: true, statusCode: true, durationMs: true, responseExcerpt: true, error: true } as const;

const DELIVERY_SELECT = {
  id: true,
  endpointId: true,
  eventId: true,
  eventName: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lastStatusCode: true,
  lastError: true,
  succeededAt: true,
  succeededDurationMs: true,
  succeededExcerpt: true,
  createdAt: true,
  updatedAt: true,
} as const;

type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof DELIVERY_SELECT }>;
type AttemptRow = Prisma.WebhookAttemptGetPayload<{ select: typeof ATTEMPT_SELECT }>;

function deliveryView(row: DeliveryRow) {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event: row.eventName,
    status: row.status as "pending" | "succeeded" | "failed",
    attempts: row.attempts,
    next_attempt_at: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The attempt that succeeded, kept on the delivery's row (the failed ones are rows of `webhook_attempts`); null before one did. */
function succeeded(row: DeliveryRow): AttemptRow | null {
  if (!row.succeededAt) return null;
  return {
    at: row.succeededAt,
    statusCode: row.lastStatusCode,
    durationMs: row.succeededDurationMs ?? 0,
    responseExcerpt: row.succeededExcerpt,
    error: null,
  };
}

function attemptView(a: AttemptRow) {
  return {
    at: a.at.toISOString(),
    status_code: a.statusCode,
    duration_ms: a.durationMs,
    response_excerpt: a.responseExcerpt,
    error: a.error,
  };
}

/** `url`: the public list's URL, for its `Link` header (D10); null for the dashboard. */
export async function listDeliveries(
  database: Database,
  workspaceId: string,
  request: z.input<typeof ZListDeliveriesRequest>,
  url: string | null = null,
) {
  const input = ZListDeliveriesRequest.parse(request);
  const endpoint = await database.prisma.webhookEndpoint.findFirst({ where: { id: input.endpoint_id, workspaceId }, select: { id: true } });
  if (!endpoint) throw notFound("webhook endpoint", "endpoint_id");
  const where: Prisma.WebhookDeliveryWhereInput = {
    workspaceId,
    endpointId: endpoint.id,
    ...(input.status ? { status: input.status } : {}),
    // Every failure writes its error: said here, the failed ones are read through the partial
    // index of the deliveries that had a failed attempt (no index holds `status`: prisma/schema.prisma).
    ...(input.status === "failed" ? { lastError: { not: null } } : {}),
  };
  const { items, next, link } = await listPage(
    { limit: input.limit, after: input.after },
    url,
    (id) =>
      database.prisma.webhookDelivery.findFirst({
        where: { workspaceId, id, endpointId: endpoint.id },
        select: { id: true, createdAt: true },
      }),
    (after, take, cursor) =>
      input.status === "pending"
        ? pendingPage(database, workspaceId, endpoint.id, take, cursor)
        : database.prisma.webhookDelivery.findMany({
            where: { AND: [where, after] },
            orderBy: NEWEST_FIRST,
            take,
            select: DELIVERY_SELECT,
          }),
    "desc",
  );
  const subjects = await subjectsOf(
    database,
    workspaceId,
    items.map((d) => d.eventId),
  );
  const last = await lastAttempts(
    database,
    workspaceId,
    items.map((d) => d.id),
  );
  return {
    items: items.map((d) => ({
      ...deliveryView(d),
      ...(subjects.get(d.eventId) ?? NO_SUBJECT),
      // The attempt that succeeded is kept on the delivery (and is its last); failed ones are rows of their own.
      last_attempt: ((a) => (a ? attemptView(a) : null))(succeeded(d)) ?? last.get(d.id) ?? null,
    })),
    next,
    link,
  };
}

// The pending deliveries of an endpoint are those with a job in the outbox (a delivery's job is
// written with it, or by its replay, and is deleted when the delivery settles; a dead letter
// stays): found from the workspace's jobs, whose number is the work in flight, not the log's
// history. No index holds a delivery's `status` (prisma/schema.prisma), and a scan of the
// endpoint's log for a status that few rows have read its whole history.
const PENDING_PAGE = `
  SELECT d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.event_name AS "eventName", d.status, d.attempts,
    d.next_attempt_at AS "nextAttemptAt", d.last_status_code AS "lastStatusCode", d.last_error AS "lastError",
    d.succeeded_at AS "succeededAt", d.succeeded_duration_ms AS "succeededDurationMs", d.succeeded_excerpt AS "succeededExcerpt",
    d.created_at AS "createdAt", d.updated_at AS "updatedAt"
  FROM webhook_deliveries d
  WHERE d.workspace_id = $1 AND d.endpoint_id = $2 AND d.status = 'pending'
    AND d.id IN (SELECT j.subject_id FROM jobs j WHERE j.workspace_id = $1 AND j.kind = 'webhook.deliver')
    AND ($3::timestamptz IS NULL OR (d.created_at, d.id) < ($3::timestamptz, $4::text))
  ORDER BY d.created_at DESC, d.id DESC
  LIMIT $5`;

function pendingPage(database: Database, workspaceId: string, endpointId: string, take: number, cursor: Cursor | null) {
  return database.query<DeliveryRow>(PENDING_PAGE, [workspaceId, endpointId, cursor?.createdAt ?? null, cursor?.id ?? null, take]);
}

/**
 * The latest attempt of each delivery of a page, one query on the (workspace_id, delivery_id,
 * at) index (Prisma's nested `take: 1` over a composite relation read every attempt instead).
 */
async function lastAttempts(database: Database, workspaceId: string, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return new Map<string, ReturnType<typeof attemptView>>();
  const rows = await database.query<AttemptRow & { deliveryId: string }>(
    `SELECT DISTINCT ON (delivery_id) delivery_id AS "deliveryId", at, status_code AS "statusCode", duration_ms AS "durationMs",
       response_excerpt AS "responseExcerpt", error
     FROM webhook_attempts WHERE workspace_id = $1 AND delivery_id = ANY($2::text[])
     ORDER BY delivery_id, at DESC, id DESC`,
    [workspaceId, deliveryIds],
  );
  return new Map(rows.map((a) => [a.deliveryId, attemptView({ ...a, at: new Date(a.at) })]));
}

type Subject = { message_id: string | null; contact_id: string | null };
const NO_SUBJECT: Subject = { message_id: null, contact_id: null };

/**
 * What each event of a page is about, for the log's links: a message event's `data.id` and
 * `data.contact`, a contact event's `data.id`. One query by primary key for the page; a test
 * event sent from the dashboard has no row and links nowhere.
 */
async function subjectsOf(database: Database, workspaceId: string, eventIds: string[]): Promise<Map<string, Subject>> {
  if (eventIds.length === 0) return new Map();
  const rows = await database.prisma.event.findMany({ where: { id: { in: eventIds }, workspaceId }, select: { id: true, data: true } });
  return new Map(
    rows.map((e) => {
      const data = (e.data ?? {}) as { id?: unknown; contact?: unknown };
      const id = typeof data.id === "string" ? data.id : null;
      const contact = typeof data.contact === "string" ? data.contact : null;
      return [
        e.id,
        {
          message_id: id?.startsWith("msg_") ? id : null,
          contact_id: id?.startsWith("ct_") ? id : contact?.startsWith("ct_") ? contact : null,
        },
      ];
    }),
  );
}

/** One delivery with every attempt (oldest first: the one that succeeded, if any, is the last) and the body it sends. */
export async function getDelivery(database: Database, workspaceId: string, request: z.input<typeof ZDeliveryId>) {
  const { delivery_id } = ZDeliveryId.parse(request);
  const d = await database.prisma.webhookDelivery.findFirst({
    where: { id: delivery_id, workspaceId },
    select: { ...DELIVERY_SELECT, body: true, attemptsLog: { select: ATTEMPT_SELECT, orderBy: { id: "asc" } } },
  });
  if (!d) throw notFound("webhook delivery", "delivery_id");
  const event = d.body
    ? null
    : await database.prisma.event.findUnique({
        where: { workspaceId_id: { workspaceId, id: d.eventId } },
        select: { id: true, name: true, mode: true, workspaceId: true, data: true, createdAt: true },
      });
  const body =
    d.body ??
    (event
      ? eventBody({
          id: event.id,
          name: event.name,
          mode: event.mode,
          workspace_id: event.workspaceId,
          data: event.data,
          created_at: event.createdAt,
        })
      : null);
  const success = succeeded(d);
  return { ...deliveryView(d), body, attempts_log: [...d.attemptsLog, ...(success ? [success] : [])].map(attemptView) };
}
