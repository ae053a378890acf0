import { contactEventsByIds } from "../contact-events/list-contact-events.ts";
import type { Database } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { notFound } from "../lib/errors.ts";
import { listPage, NEWEST_FIRST } from "../lib/pagination.ts";
import type { RunStatus } from "./flow-schemas.ts";
import { runView } from "./flow-views.ts";

const RUN_SELECT = {
  id: true,
  flowId: true,
  contactId: true,
  status: true,
  createdAt: true,
  mode: true,
  key: true,
  version: true,
  convertedAt: true,
  position: true,
  reason: true,
  nextStepAt: true,
  endedAt: true,
} as const;

type Row = Prisma.FlowRunGetPayload<{ select: typeof RUN_SELECT }>;

const detailView = (r: Row) => ({
  ...runView(r),
  mode: r.mode,
  version: r.version,
  position: r.position as (number | string)[],
  reason: r.reason,
  next_step_at: r.nextStepAt?.toISOString() ?? null,
  converted_at: r.convertedAt?.toISOString() ?? null,
  ended_at: r.endedAt?.toISOString() ?? null,
});

/** A flow's runs for the dashboard, newest first, optionally of one status. */
export async function listRuns(
  database: Database,
  workspaceId: string,
  input: { flow_id: string; status?: RunStatus; limit: number; after?: string },
) {
  const flow = await database.prisma.flow.findFirst({ where: { id: input.flow_id, workspaceId }, select: { id: true } });
  if (!flow) throw notFound("flow", "flow_id");
  const where: Prisma.FlowRunWhereInput = { workspaceId, flowId: flow.id, ...(input.status ? { status: input.status } : {}) };
  const { items, next } = await listPage(
    { limit: input.limit, after: input.after },
    null,
    (id) => database.prisma.flowRun.findFirst({ where: { workspaceId, id, flowId: flow.id }, select: { id: true, createdAt: true } }),
    (after, take) => database.prisma.flowRun.findMany({ where: { AND: [where, after] }, orderBy: NEWEST_FIRST, take, select: RUN_SELECT }),
    "desc",
  );
  const names = await contactNames(
    database,
    workspaceId,
    items.map((r) => r.contactId),
  );
  return { items: items.map((r) => ({ ...detailView(r), contact: names.get(r.contactId) ?? null })), next };
}

type ContactName = { name: string | null; phone: string | null; email: string | null };

/** The names of a page's contacts in one query (by primary key), never one per run. */
export async function contactNames(database: Database, workspaceId: string, ids: string[]): Promise<Map<string, ContactName>> {
  if (ids.length === 0) return new Map();
  const rows = await database.prisma.contact.findMany({
    where: { workspaceId, id: { in: [...new Set(ids)] } },
    select: { id: true, name: true, phone: true, email: true },
  });
  return new Map(rows.map((c) => [c.id, { name: c.name, phone: c.phone, email: c.email }]));
}

/** One run with its history, oldest first, and the contact events it names. */
export async function getRun(database: Database, workspaceId: string, runId: string) {
  const run = await database.prisma.flowRun.findFirst({
    where: { id: runId, workspaceId },
    select: {
      ...RUN_SELECT,
      history: { orderBy: [{ at: "asc" }, { id: "asc" }], select: { at: true, kind: true, position: true, detail: true } },
    },
  });
  if (!run) throw notFound("run", "run_id");
  // The contact events its history names (the trigger's, the one that woke a wait, the goal's), so the dashboard says which they were.
  const eventIds = run.history.flatMap((h) => {
    const id = (h.detail as { event_id?: unknown } | null)?.event_id;
    return typeof id === "string" ? [id] : [];
  });
  const [names, events] = await Promise.all([
    contactNames(database, workspaceId, [run.contactId]),
    contactEventsByIds(database, workspaceId, eventIds),
  ]);
  return {
    ...detailView(run),
    contact: names.get(run.contactId) ?? null,
    history: run.history.map((h) => ({ at: h.at.toISOString(), kind: h.kind, position: h.position, detail: h.detail })),
    events: events.map(({ id, name, properties, created_at }) => ({ id, name, properties, created_at })),
  };
}
