import { upsertContact } from "../contacts/upsert-contact.ts";
import type { Database } from "../db/client.ts";
import type { Sender as Actor } from "../messaging/send-message.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { resolveRecipient } from "../messaging/resolve-recipient.ts";
import { wakePipeline } from "../pipeline/wake.ts";
import type { ZEnrollRequest } from "./flow-schemas.ts";
import { runView, type RunRow } from "./flow-views.ts";
import type { z } from "zod";

// One statement writes the run, its first history entry and its first step's job (the
// transactional outbox), once the checks inside the enrolling transaction have passed.
const INSERT_RUN = `
  WITH r AS (
    INSERT INTO flow_runs (id, workspace_id, flow_id, version, contact_id, mode, status, position, variables, next_step_at, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6::"KeyMode", 'active', '[0]', $7::jsonb, $8, $8, $8)
    RETURNING id
  ), h AS (
    INSERT INTO flow_run_history (run_id, at, kind, position, detail) SELECT id, $8, 'enrolled', '[0]', $9::jsonb FROM r
  )
  INSERT INTO jobs (id, kind, subject_id, workspace_id, payload, run_at, created_at)
  SELECT $10, 'flow.step', id, $2, '{"position":[0]}', $8, $8 FROM r`;

/**
 * POST /flows/{flow_id}/enroll (D15, D18, D40). Checks in order: the flow exists (404
 * `flow_id`), the recipient (D15: 400/404 on `to.*`), the flow is active (409), and the
 * contact has no active run of the key's mode in the flow unless the flow allows re-entry
 * (409 `to`). A new phone or e-mail creates its contact only once the flow is known to accept.
 * The run starts at its first step at once, in the key's mode, on the flow's current version.
 */
export async function enrollContact(database: Database, actor: Actor, flowId: string, input: z.output<typeof ZEnrollRequest>) {
  const flow = await database.prisma.flow.findFirst({ where: { id: flowId, workspaceId: actor.workspaceId }, select: { status: true } });
  if (!flow) throw notFound("flow", "flow_id");
  const recipient = await resolveRecipient(database, actor, input.to);
  if (flow.status !== "active") throw notActive(flow.status);
  const contactId = recipient.exists ? recipient.contact.id : (await upsertContact(database, actor, recipient.draft)).id;

  const now = new Date();
  const id = newId("run");
  await database.transaction(async (sql) => {
    // The contact's row serializes enrollments of one contact; the flow's, against a status change.
    await sql(`SELECT 1 FROM contacts WHERE id = $1 FOR UPDATE`, [contactId]);
    const [current] = await sql<{ status: string; version: number; allow_reentry: boolean }>(
      `SELECT status::text AS status, version, allow_reentry FROM flows WHERE id = $1 FOR SHARE`,
      [flowId],
    );
    if (current!.status !== "active") throw notActive(current!.status);
    if (!current!.allow_reentry) {
      const [active] = await sql(
        `SELECT id FROM flow_runs WHERE flow_id = $1 AND contact_id = $2 AND mode = $3::"KeyMode" AND status = 'active' LIMIT 1`,
        [flowId, contactId, actor.mode],
      );
      if (active)
        throw conflict("already_enrolled", "The contact already has an active run in this flow, which does not allow re-entry.", "to");
    }
    await sql(INSERT_RUN, [
      id,
      actor.workspaceId,
      flowId,
      current!.version,
      contactId,
      actor.mode,
      JSON.stringify(input.variables ?? {}),
      now,
      JSON.stringify({ version: current!.version }),
      newId("job"),
    ]);
  });
  wakePipeline();
  const run: RunRow = { id, flowId, contactId, status: "active", createdAt: now };
  return runView(run);
}

const notActive = (status: string) =>
  conflict("flow_not_active", `The flow is ${status}; only an active flow accepts enrollment.`, "flow_id");
