import { isDeepStrictEqual } from "node:util";
import type { Actor } from "../audit/actor.ts";
import { recordAudit } from "../audit/record-audit.ts";
import type { Database } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { checkDefinition } from "./check-definition.ts";
import type { FlowDefinitionInput } from "./flow-schemas.ts";
import { setFlowStatus } from "./set-flow-status.ts";

/**
 * Creates a flow from a D37 document (dashboard, `svc flow import`): version 1, in the
 * document's status (`draft` when absent; a new flow cannot start `archived`).
 */
export async function createFlow(
  database: Database,
  workspaceId: string,
  input: FlowDefinitionInput,
  actor: Actor,
): Promise<{ flow_id: string }> {
  const definition = await checkDefinition(database, workspaceId, input);
  if (definition.status === "archived") throw conflict("invalid_flow_status", "A new flow cannot be archived.", "status");
  const id = newId("flow");
  const status = definition.status ?? "draft";
  await database.prisma.$transaction(async (tx) => {
    await tx.flow.create({
      data: {
        id,
        workspaceId,
        name: definition.name,
        status,
        allowReentry: definition.allow_reentry,
        versions: { create: { version: 1, steps: definition.steps as Prisma.InputJsonValue } },
      },
    });
    await recordAudit(tx, actor, {
      workspaceId,
      action: "flow.created",
      target: { type: "flow", id },
      detail: { name: definition.name, status, steps: definition.steps.length },
    });
  });
  return { flow_id: id };
}

/**
 * Saves an edited document. A draft's steps change in place; once a flow has left draft, new
 * steps make a new version, and runs already started keep theirs (D37). A status in the
 * document moves the flow like `setFlowStatus`. Archived flows are read-only.
 */
export async function updateFlow(database: Database, workspaceId: string, flowId: string, input: FlowDefinitionInput, actor: Actor) {
  const definition = await checkDefinition(database, workspaceId, input);
  const saved = await database.prisma.$transaction(async (tx) => {
    const [flow] = await tx.$queryRaw<{ status: string; version: number }[]>`
      SELECT status::text AS status, version FROM flows WHERE id = ${flowId} AND workspace_id = ${workspaceId} FOR UPDATE`;
    if (!flow) throw notFound("flow", "flow_id");
    if (flow.status === "archived") throw conflict("flow_archived", "An archived flow cannot be changed.", "flow_id");
    const current = await tx.flowVersion.findUniqueOrThrow({ where: { flowId_version: { flowId, version: flow.version } } });
    let version = flow.version;
    if (!isDeepStrictEqual(current.steps, JSON.parse(JSON.stringify(definition.steps)))) {
      const steps = definition.steps as Prisma.InputJsonValue;
      if (flow.status === "draft") {
        await tx.flowVersion.update({ where: { flowId_version: { flowId, version } }, data: { steps } });
      } else {
        version += 1;
        await tx.flowVersion.create({ data: { flowId, version, steps } });
      }
    }
    await tx.flow.update({
      where: { id: flowId },
      data: { name: definition.name, allowReentry: definition.allow_reentry, version, updatedAt: new Date() },
    });
    await recordAudit(tx, actor, {
      workspaceId,
      action: "flow.updated",
      target: { type: "flow", id: flowId },
      detail: { name: definition.name, version, new_version: version !== flow.version },
    });
    return { version, status: flow.status };
  });
  if (definition.status && definition.status !== saved.status) await setFlowStatus(database, workspaceId, flowId, definition.status, actor);
  return { flow_id: flowId, version: saved.version };
}
