import { upsertContact } from "../contacts/upsert-contact.ts";
import type { Database } from "../db/client.ts";
import type { IdempotentEffect } from "../idempotency/idempotency.ts";
import type { Sender as Actor } from "../messaging/insert-messages.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { resolveRecipient } from "../messaging/resolve-recipient.ts";
import { insertJobs, jobRow } from "../outbox/jobs.ts";
import { wakePipeline } from "../outbox/wake.ts";
import type { ZEnrollRequest } from "./flow-schemas.ts";
import { runView } from "./flow-views.ts";
import type { z } from "zod";

// One statement writes the run, its first history entry and its first step's job (the
// transactional outbox), unless the contact has an active run of this mode in the flow and
// the flow does not allow re-entry (D18, D40). It runs after LOCK in the same transaction, so
// its snapshot sees every run committed before the contact's row was locked.
const INSERT_RUN = `
  WITH r AS (
    INSERT INTO flow_runs (id, workspace_id, flow_id, version, contact_id, mode, status, position, variables, next_step_at, created_at, updated_at)
    SELECT $1, $2, $3, $4, $5, $6::"KeyMode", 'active', '[0]', $7::jsonb, $8, $8, $8
    WHERE $11::boolean OR NOT EXISTS (
      SELECT 1 FROM flow_runs WHERE flow_id = $3 AND contact_id = $5 AND mode = $6::"KeyMode" AND status = 'active'
    )
    RETURNING id
  ), h AS (
    INSERT INTO flow_run_history (run_id, at, kind, position, detail) SELECT id, $8, 'enrolled', '[0]', $9::jsonb FROM r
  ), j AS (
    ${insertJobs(10, "EXISTS (SELECT 1 FROM r)")}
  )
  SELECT count(*)::int AS inserted FROM r`;

// The contact's row serializes the enrollments of one contact; the flow's (shared) holds off
// a status change until the run is written.
const LOCK = `
  SELECT f.status::text AS status, f.version, f.allow_reentry FROM flows f CROSS JOIN contacts c
  WHERE f.id = $1 AND c.id = $2 FOR SHARE OF f FOR UPDATE OF c`;

/**
 * POST /flows/{flow_id}/enroll (D15, D18, D40). Checks in order: the flow exists (404
 * `flow_id`), the recipient (D15: 400/404 on `to.*`), the flow is active (409), and the
 * contact has no active run of the key's mode in the flow unless the flow allows re-entry
 * (409 `to`). A new phone or e-mail creates its contact only once the flow is known to accept.
 * The run starts at its first step at once, in the key's mode, on the flow's current version.
 */
export async function enrollContact(
  database: Database,
  actor: Actor,
  flowId: string,
  input: z.output<typeof ZEnrollRequest>,
  idempotency?: IdempotentEffect,
) {
  const [flow] = await database.query<{ status: string }>(`SELECT status::text AS status FROM flows WHERE id = $1 AND workspace_id = $2`, [
    flowId,
    actor.workspaceId,
  ]);
  if (!flow) throw notFound("flow", "flow_id");
  const recipient = await resolveRecipient(database, actor, input.to);
  if (flow.status !== "active") throw notActive(flow.status);
  const contactId = recipient.exists ? recipient.contact.id : (await upsertContact(database, actor, recipient.draft)).id;

  const now = new Date();
  const id = newId("run");
  const view = runView({ id, flowId, contactId, status: "active", createdAt: now });
  await database.transaction(async (sql) => {
    const [current] = await sql<{ status: string; version: number; allow_reentry: boolean }>(LOCK, [flowId, contactId]);
    if (current!.status !== "active") throw notActive(current!.status);
    const [written] = await sql<{ inserted: number }>(INSERT_RUN, [
      id,
      actor.workspaceId,
      flowId,
      current!.version,
      contactId,
      actor.mode,
      JSON.stringify(input.variables ?? {}),
      now,
      JSON.stringify({ version: current!.version }),
      JSON.stringify([jobRow("flow.step", { position: [0] }, { subjectId: id, workspaceId: actor.workspaceId, at: now })]),
      current!.allow_reentry,
    ]);
    if (!written?.inserted) {
      throw conflict("already_enrolled", "The contact already has an active run in this flow, which does not allow re-entry.", "to");
    }
    // The run and the stored idempotent response commit together (D46).
    await idempotency?.record(sql, view);
  });
  wakePipeline();
  return view;
}

const notActive = (status: string) =>
  conflict("flow_not_active", `The flow is ${status}; only an active flow accepts enrollment.`, "flow_id");
