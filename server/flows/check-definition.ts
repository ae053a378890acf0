import type { Database } from "../db/client.ts";
import { checkFieldValue } from "../fields/field-values.ts";
import { AppError, fromZodError, invalid } from "../lib/errors.ts";
import { checkTemplateSend, type TemplateRequest } from "../whatsapp/check-template-send.ts";
import { eachStep, withStepIds } from "./step-path.ts";
import { ZFlowDefinition, type FlowDefinition, type FlowDefinitionInput, type Step } from "./flow-schemas.ts";

/**
 * D37: a definition is validated when saved, and refused with the path of its first fault.
 * The shape is zod's (`steps.2.if`); then every reference to the workspace: tag ids
 * (`steps.2.if.has_tag`, `steps.3.add.0`), custom field keys and their value types
 * (`steps.4.key`, `steps.4.value`), and channel ids (`steps.0.channel_id`).
 */
export async function checkDefinition(database: Database, workspaceId: string, input: FlowDefinitionInput): Promise<FlowDefinition> {
  const parsed = ZFlowDefinition.safeParse(input);
  if (!parsed.success) throw fromZodError(parsed.error)!;
  // D70: a step's id names one step of the document.
  const seen = new Set<string>();
  eachStep(parsed.data.steps, (step, path) => {
    if (step.id === undefined) return;
    const param = ["steps", ...path, "id"].join(".");
    if (seen.has(step.id)) throw invalid("parameter_invalid", `${param}: another step has the id ${step.id}`, param);
    seen.add(step.id);
  });
  // D70: steps without an id get one here, so every saved version names each of its steps.
  const definition = { ...parsed.data, steps: withStepIds(parsed.data.steps) };
  const [tags, fields, channels] = await Promise.all([
    database.prisma.tag.findMany({ where: { workspaceId }, select: { id: true } }),
    database.prisma.customField.findMany({ where: { workspaceId }, select: { key: true, type: true } }),
    database.prisma.channel.findMany({ where: { workspaceId, disconnectedAt: null }, select: { id: true, type: true } }),
  ]);
  const tagIds = new Set(tags.map((t) => t.id));
  const fieldTypes = new Map(fields.map((f) => [f.key, f.type]));
  const channelTypes = new Map(channels.map((c) => [c.id, c.type]));

  const tag = (id: string, param: string) => {
    if (!tagIds.has(id)) throw invalid("unknown_tag", `${param}: no tag with id ${id} in this workspace.`, param);
  };
  const field = (key: string, param: string) => {
    const type = fieldTypes.get(key);
    if (!type) throw invalid("unknown_field", `${param}: no custom field with key ${key} in this workspace.`, param);
    return type;
  };
  const walk = async (steps: Step[], path: string): Promise<void> => {
    for (const [i, step] of steps.entries()) {
      const at = `${path}.${i}`;
      switch (step.type) {
        case "send":
          if (step.channel_id !== undefined && channelTypes.get(step.channel_id) !== step.channel) {
            throw invalid("unknown_channel", `${at}.channel_id: no connected ${step.channel} channel with this id.`, `${at}.channel_id`);
          }
          if (step.whatsapp?.template) await checkStepTemplate(database, workspaceId, step.channel_id, step.whatsapp.template, at);
          break;
        case "branch":
          if ("has_tag" in step.if) tag(step.if.has_tag, `${at}.if.has_tag`);
          if ("field" in step.if) {
            const type = field(step.if.field, `${at}.if.field`);
            if ("equals" in step.if) checkFieldValue(step.if.field, type, step.if.equals, `${at}.if.equals`);
          }
          await walk(step.then, `${at}.then`);
          await walk(step.else, `${at}.else`);
          break;
        case "split":
          for (const [j, path] of step.paths.entries()) await walk(path.steps, `${at}.paths.${j}.steps`);
          break;
        case "wait_for":
          await walk(step.on_event, `${at}.on_event`);
          await walk(step.on_timeout, `${at}.on_timeout`);
          break;
        case "tag":
          step.add?.forEach((id, j) => tag(id, `${at}.add.${j}`));
          step.remove?.forEach((id, j) => tag(id, `${at}.remove.${j}`));
          break;
        case "set_field": {
          const type = field(step.key, `${at}.key`);
          if (step.value !== null) checkFieldValue(step.key, type, step.value, `${at}.value`);
          break;
        }
      }
    }
  };
  await walk(definition.steps, "steps");
  return definition;
}

/**
 * D42 in flows: a send step's template is checked as an API send checks it, against the
 * channel that would send it (the step's `channel_id`, else the workspace's first WhatsApp
 * channel), with each error's `param` pointing into the step (`steps.2.whatsapp.template.name`).
 */
async function checkStepTemplate(
  database: Database,
  workspaceId: string,
  channelId: string | undefined,
  template: TemplateRequest,
  at: string,
): Promise<void> {
  try {
    await checkTemplateSend(database.query, { id: channelId ?? null, workspaceId }, template);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    throw new AppError(err.code, `${at}.${err.param}: ${err.message}`, { param: `${at}.${err.param}` });
  }
}
