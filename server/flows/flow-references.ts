import type { Handle } from "../db/client.ts";
import { conflict } from "../lib/errors.ts";
import type { Step } from "./flow-schemas.ts";
import { eachStep, stepParam } from "./step-path.ts";

/** What a flow's document may name: a tag by id, a custom field by key. */
export type Reference = { tag: string } | { field: string };

/** Where `step` names `ref`, as a path below the step (`if.has_tag`, `add.0`), or null. */
function namedAt(step: Step, ref: Reference): string | null {
  if ("tag" in ref) {
    if (step.type === "branch" && "has_tag" in step.if && step.if.has_tag === ref.tag) return "if.has_tag";
    if (step.type === "tag") {
      const added = step.add?.indexOf(ref.tag) ?? -1;
      if (added >= 0) return `add.${added}`;
      const removed = step.remove?.indexOf(ref.tag) ?? -1;
      if (removed >= 0) return `remove.${removed}`;
    }
    return null;
  }
  if (step.type === "branch" && "field" in step.if && step.if.field === ref.field) return "if.field";
  if (step.type === "set_field" && step.key === ref.field) return "key";
  return null;
}

/**
 * D99: a tag or a custom field may not be deleted while a flow that can still run names it in
 * its current document: `409`, code `in_use`, `param` = `id`, naming the flow and the place.
 * Active and paused flows count (a paused flow's runs carry on once it is resumed); drafts and
 * archived flows do not. Through `sql`, so the check commits with the caller's delete.
 */
export async function refuseIfNamed(sql: Handle, workspaceId: string, ref: Reference, what: string): Promise<void> {
  const flows = await sql<{ id: string; name: string; steps: Step[] }>(
    `SELECT f.id, f.name, v.steps FROM flows f JOIN flow_versions v ON v.workspace_id = f.workspace_id AND v.flow_id = f.id AND v.version = f.version
     WHERE f.workspace_id = $1 AND f.status IN ('active', 'paused') ORDER BY f.created_at, f.id`,
    [workspaceId],
  );
  for (const flow of flows) {
    let at: string | null = null;
    eachStep(flow.steps, (step, path) => {
      const below = at === null ? namedAt(step, ref) : null;
      if (below !== null) at = `${stepParam(path)}.${below}`;
    });
    if (at !== null) {
      throw conflict("in_use", `The flow ${flow.id} (${flow.name}) names this ${what} at ${at}; change or archive the flow first.`, "id");
    }
  }
}
