import { isDeepStrictEqual } from "node:util";
import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { completeClaimsOf, keyInUse, type IdempotentEffect } from "../idempotency/idempotency.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { checkDefinition } from "./check-definition.ts";
import type { FlowDefinitionInput } from "./flow-schemas.ts";
import { flowWithDocument, type FlowWithDocument } from "./flow-views.ts";
import { checkMigrate, moveRuns } from "./move-runs.ts";
import { moveFlow } from "./set-flow-status.ts";

/**
 * Creates a flow from a D37 document (dashboard, `svc flow import`, `POST /flows`): version 1,
 * in the document's status (`draft` when absent; a new flow cannot start `archived`). Answers
 * the flow as `GET /flows/{flow_id}` shows it; with `idempotency` (`POST /flows`, D98), that
 * answer is stored for the key in the transaction that writes the flow (D46): a retry after a
 * crash finds it, never a second flow.
 */
export async function createFlow(
  database: Database,
  workspaceId: string,
  input: FlowDefinitionInput,
  actor: Caller,
  idempotency?: IdempotentEffect,
): Promise<{ flow_id: string; flow: FlowWithDocument }> {
  const definition = await checkDefinition(database, workspaceId, input);
  checkMigrate(definition.migrate, definition.status ?? "draft");
  if (definition.status === "archived") throw conflict("invalid_flow_status", "A new flow cannot be archived.", "status");
  const id = newId("flow");
  const status = definition.status ?? "draft";
  const flow = await database.prisma.$transaction(async (tx) => {
    const created = await tx.flow.create({
      data: {
        id,
        workspaceId,
        name: definition.name,
        status,
        allowReentry: definition.allow_reentry,
        triggerEvent: definition.trigger?.event ?? null,
        versions: {
          create: {
            version: 1,
            steps: definition.steps as Prisma.InputJsonValue,
            trigger: (definition.trigger ?? undefined) as Prisma.InputJsonValue | undefined,
            goal: (definition.goal ?? undefined) as Prisma.InputJsonValue | undefined,
            quietHours: (definition.quiet_hours ?? undefined) as Prisma.InputJsonValue | undefined,
            caps: (definition.caps ?? undefined) as Prisma.InputJsonValue | undefined,
          },
        },
      },
      // D87: nothing of an enum column returned (Citus refuses their text cast in RETURNING).
      select: { id: true, name: true, createdAt: true, updatedAt: true, version: true, allowReentry: true },
    });
    await recordAudit(prismaHandle(tx), actor, {
      workspaceId,
      action: "flow.created",
      target: { type: "flow", id },
      detail: { name: definition.name, status, steps: definition.steps.length },
    });
    const view = flowWithDocument({ ...created, status }, { ...definition, quiet_hours: definition.quiet_hours });
    // A claim taken over meanwhile (this request outlived it) stores nothing: the flow is not written either.
    if (idempotency && (await completeClaimsOf(prismaHandle(tx), [idempotency.completion(id, view)])).size === 0) throw keyInUse();
    return view;
  });
  idempotency?.stored();
  return { flow_id: id, flow };
}

/**
 * Saves an edited document. A draft's steps change in place; once a flow has left draft, new
 * steps make a new version, and runs already started keep theirs (D37). A status in the
 * document moves the flow like `setFlowStatus`, in the same transaction: a move the lifecycle
 * refuses leaves the document unsaved. Archived flows are read-only. `migrate: "move"` (D70)
 * then moves the active runs onto the new version (`moveRuns`).
 */
export async function updateFlow(database: Database, workspaceId: string, flowId: string, input: FlowDefinitionInput, actor: Caller) {
  const definition = await checkDefinition(database, workspaceId, input);
  const saved = await database.transaction(async (sql) => {
    const [flow] = await sql<Columns<"flows", "status" | "version">>(
      `SELECT status::text AS status, version FROM flows WHERE id = $1 AND workspace_id = $2 FOR NO KEY UPDATE`,
      [flowId, workspaceId],
    );
    if (!flow) throw notFound("flow", "flow_id");
    if (flow.status === "archived") throw conflict("flow_archived", "An archived flow cannot be changed.", "flow_id");
    checkMigrate(definition.migrate, flow.status);
    const [current] = await sql<Columns<"flow_versions", "steps" | "trigger" | "goal" | "quiet_hours" | "caps">>(
      `SELECT steps, trigger, goal, quiet_hours, caps FROM flow_versions WHERE workspace_id = $3 AND flow_id = $1 AND version = $2`,
      [flowId, flow.version, workspaceId],
    );
    let version = flow.version;
    // A version is its steps, trigger, goal and quiet hours (D62, D64, D65): a run keeps the ones it started with.
    const content = JSON.parse(
      JSON.stringify({
        steps: definition.steps,
        trigger: definition.trigger ?? null,
        goal: definition.goal ?? null,
        quiet_hours: definition.quiet_hours ?? null,
        caps: definition.caps ?? null,
      }),
    );
    if (
      !isDeepStrictEqual(
        { steps: current!.steps, trigger: current!.trigger, goal: current!.goal, quiet_hours: current!.quiet_hours, caps: current!.caps },
        content,
      )
    ) {
      const values = [
        workspaceId,
        flowId,
        version + (flow.status === "draft" ? 0 : 1),
        ...[content.steps, content.trigger, content.goal, content.quiet_hours, content.caps].map((v) => JSON.stringify(v)),
      ];
      if (flow.status === "draft") {
        await sql(
          `UPDATE flow_versions SET steps = $4::jsonb, trigger = $5::jsonb, goal = $6::jsonb, quiet_hours = $7::jsonb, caps = $8::jsonb
           WHERE workspace_id = $1 AND flow_id = $2 AND version = $3`,
          values,
        );
      } else {
        version += 1;
        await sql(
          `INSERT INTO flow_versions (workspace_id, flow_id, version, steps, trigger, goal, quiet_hours, caps)
           VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb)`,
          values,
        );
      }
    }
    await sql(
      `UPDATE flows SET name = $2, allow_reentry = $3, version = $4, trigger_event = $5, updated_at = now() WHERE workspace_id = $6 AND id = $1`,
      [flowId, definition.name, definition.allow_reentry, version, definition.trigger?.event ?? null, workspaceId],
    );
    await recordAudit(sql, actor, {
      workspaceId,
      action: "flow.updated",
      target: { type: "flow", id: flowId },
      detail: { name: definition.name, version, new_version: version !== flow.version },
    });
    const moved = definition.status !== undefined && definition.status !== flow.status;
    if (moved) await moveFlow(sql, { id: flowId, workspaceId, status: flow.status, name: definition.name }, definition.status!, actor);
    return { version, moved, newVersion: version !== flow.version };
  });
  // D70: with `move`, the runs go to the new version once it is saved, in batches of their own.
  const runs = definition.migrate === "move" && saved.newVersion ? await moveRuns(database, workspaceId, flowId, saved.version) : null;
  if (saved.moved || runs) wakePipeline();
  return { flow_id: flowId, version: saved.version, runs: runs ?? undefined };
}
