import { z } from "zod";
import type { Database } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { listPage, NEWEST_FIRST } from "../lib/pagination.ts";
import { AUDIT_ACTION_NAMES } from "./audit-actions.ts";

// The audit page's query: one workspace's entries, newest first, by action and by actor, in
// pages. The index (workspace_id, created_at DESC, id DESC) answers it without reading other
// workspaces' rows (server/db/query-plans.test.ts).

/** `cli`, `user:<id>` or `api_key:<id>`. */
const ZActorFilter = z.union([z.literal("cli"), z.string().regex(/^(user|api_key):[\w-]{1,64}$/)]);

export const ZListAuditEventsRequest = z.object({
  action: z.enum(AUDIT_ACTION_NAMES).optional(),
  actor: ZActorFilter.optional(),
  limit: z.number().int().min(1).max(100).default(25),
  after: z.string().min(1).max(64).optional(),
});

const SELECT = {
  id: true,
  action: true,
  actorType: true,
  actorId: true,
  actorLabel: true,
  targetType: true,
  targetId: true,
  detail: true,
  createdAt: true,
} as const;

type Row = Prisma.AuditEventGetPayload<{ select: typeof SELECT }>;

function actorWhere(actor: string | undefined): Prisma.AuditEventWhereInput {
  if (!actor) return {};
  if (actor === "cli") return { actorType: "cli" };
  const [type, id] = actor.split(":") as ["user" | "api_key", string];
  return { actorType: type, actorId: id };
}

export async function listAuditEvents(database: Database, workspaceId: string, request: z.input<typeof ZListAuditEventsRequest>) {
  const input = ZListAuditEventsRequest.parse(request);
  const where: Prisma.AuditEventWhereInput = { workspaceId, ...(input.action ? { action: input.action } : {}), ...actorWhere(input.actor) };
  const { items, next } = await listPage(
    { limit: input.limit, after: input.after },
    null,
    (id) => database.prisma.auditEvent.findFirst({ where: { id, workspaceId }, select: { id: true, createdAt: true } }),
    (after, take) => database.prisma.auditEvent.findMany({ where: { AND: [where, after] }, orderBy: NEWEST_FIRST, take, select: SELECT }),
    "desc",
  );
  const names = await actorAndTargetNames(database, workspaceId, items);
  return { items: items.map((row) => view(row, names)), next };
}

type Names = { users: Map<string, string | null>; keys: Map<string, string>; endpoints: Set<string> };

/** Today's names of the page's users and keys, and which of its webhook endpoints still exist (for links). */
async function actorAndTargetNames(database: Database, workspaceId: string, rows: Row[]): Promise<Names> {
  const ids = (type: string, pick: (r: Row) => [string, string | null]) => [
    ...new Set(rows.map(pick).flatMap(([t, id]) => (t === type && id ? [id] : []))),
  ];
  const userIds = ids("user", (r) => [r.actorType, r.actorId]);
  const keyIds = ids("api_key", (r) => [r.actorType, r.actorId]);
  const endpointIds = ids("webhook", (r) => [r.targetType, r.targetId]);
  const [users, keys, endpoints] = await Promise.all([
    userIds.length ? database.prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } }) : [],
    keyIds.length ? database.prisma.apiKey.findMany({ where: { id: { in: keyIds }, workspaceId }, select: { id: true, name: true } }) : [],
    endpointIds.length
      ? database.prisma.webhookEndpoint.findMany({ where: { id: { in: endpointIds }, workspaceId }, select: { id: true } })
      : [],
  ]);
  return {
    users: new Map(users.map((u) => [u.id, u.name])),
    keys: new Map(keys.map((k) => [k.id, k.name])),
    endpoints: new Set(endpoints.map((e) => e.id)),
  };
}

function view(row: Row, names: Names) {
  const detail = (row.detail ?? {}) as Record<string, unknown>;
  const actor =
    row.actorType === "cli"
      ? { type: "cli" as const, id: null, name: "Operator (command line)" }
      : row.actorType === "user"
        ? { type: "user" as const, id: row.actorId, name: names.users.get(row.actorId ?? "") ?? null, email: row.actorLabel }
        : { type: "api_key" as const, id: row.actorId, name: names.keys.get(row.actorId ?? "") ?? row.actorId };
  const label = [detail.name, detail.email, detail.url].find((v): v is string => typeof v === "string" && v.length > 0) ?? null;
  // Only targets with a page of their own that still exists are linked.
  const linked = row.targetType === "flow" || (row.targetType === "webhook" && names.endpoints.has(row.targetId ?? ""));
  return {
    id: row.id,
    action: row.action,
    actor,
    target: { type: row.targetType, id: row.targetId, label, linked },
    detail,
    created_at: row.createdAt.toISOString(),
  };
}

/** Who can be chosen in the page's actor filter: the team, the workspace's keys, the operator. */
export async function listAuditActors(database: Database, workspaceId: string) {
  const [members, keys] = await Promise.all([
    database.prisma.membership.findMany({
      where: { workspaceId },
      orderBy: { createdAt: "asc" },
      select: { user: { select: { id: true, email: true, name: true } } },
    }),
    database.prisma.apiKey.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" }, select: { id: true, name: true } }),
  ]);
  return [
    { value: "cli", label: "Operator (command line)" },
    ...members.map(({ user }) => ({ value: `user:${user.id}`, label: user.name ? `${user.name} (${user.email})` : user.email })),
    ...keys.map((k) => ({ value: `api_key:${k.id}`, label: `API key: ${k.name}` })),
  ];
}
