import { z } from "zod";
import type { Flow, FlowRun } from "../generated/prisma/client.ts";
import { stepId, withStepIds } from "./step-path.ts";
import type { FlowDefinition, Goal, Step, Trigger } from "./flow-schemas.ts";
import type { QuietHours } from "../lib/time-zones.ts";
import type { Caps } from "../messaging/frequency-caps.ts";

// What flows and runs look like to callers: the spec's Flow and Flow run objects (API), and
// the D37 document (export, editor).

export const ZFlow = z
  .object({
    id: z.string().describe("Prefix `flow_`."),
    name: z.string(),
    status: z.enum(["draft", "active", "paused", "archived"]).describe("`active` is the status that allows enrollment."),
    created_at: z.string(),
  })
  .meta({ id: "Flow" });

export const ZFlowRun = z
  .object({
    id: z.string().describe("Prefix `run_`."),
    flow_id: z.string(),
    contact_id: z.string(),
    status: z.enum(["active", "completed", "stopped", "failed"]).describe("`active` right after enrollment."),
    key: z.string().nullable().describe("The run's key, given at enrollment or by the flow's trigger; null without one."),
    created_at: z.string(),
  })
  .meta({ id: "FlowRun" });

/** A flow's D37 document as the service writes it: every step with its `id` (D70), defaults written out. */
export const ZFlowDocument = z
  .looseObject({
    name: z.string(),
    status: z.enum(["draft", "active", "paused", "archived"]),
    allow_reentry: z.boolean(),
    trigger: z.looseObject({ event: z.string() }).optional().describe("The event that starts a run, when the flow has one."),
    goal: z.looseObject({ event: z.string() }).optional().describe("The event that converts a run, when the flow has one."),
    quiet_hours: z.looseObject({}).optional(),
    caps: z.looseObject({}).optional(),
    steps: z
      .array(z.looseObject({ id: z.string(), type: z.string() }))
      .describe("Every step, nested ones included, with its `id`: keep the ids when you send the document back."),
  })
  .meta({
    id: "FlowDocument",
    example: {
      name: "Welcome",
      status: "active",
      allow_reentry: false,
      steps: [
        { id: "hello", type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}!" } },
        { id: "pause", type: "wait", duration: "P1D" },
      ],
    },
  });

/** GET /flows/{flow_id} (D98): the flow with its current version's document. */
export const ZFlowWithDocument = ZFlow.extend({
  version: z.number().int().describe("The current version; runs started earlier keep theirs."),
  updated_at: z.string(),
  document: ZFlowDocument,
}).meta({ id: "FlowWithDocument" });

export const ZFlowVersion = z
  .object({
    version: z.number().int(),
    created_at: z.string(),
    current: z.boolean().describe("Whether new runs start on this version."),
    document: ZFlowDocument.describe("This version's document, with the flow's current name and status."),
  })
  .meta({ id: "FlowVersion" });

/** `ZFlowWithDocument`, with the document's own type (what the editor reads). */
export type FlowWithDocument = z.infer<typeof ZFlow> & { version: number; updated_at: string; document: ReturnType<typeof flowDocument> };

export type FlowRow = Pick<Flow, "id" | "name" | "status" | "createdAt">;
export type RunRow = Pick<FlowRun, "id" | "flowId" | "contactId" | "status" | "createdAt" | "key">;

export const flowView = (f: FlowRow): z.infer<typeof ZFlow> => ({
  id: f.id,
  name: f.name,
  status: f.status,
  created_at: f.createdAt.toISOString(),
});

export const runView = (r: RunRow): z.infer<typeof ZFlowRun> => ({
  id: r.id,
  flow_id: r.flowId,
  contact_id: r.contactId,
  status: r.status,
  key: r.key,
  created_at: r.createdAt.toISOString(),
});

/** The D37 document of a flow's current version (export, editor), with its trigger and goal when it has them. */
export function flowDocument(
  f: Pick<Flow, "name" | "status" | "allowReentry">,
  version: { steps: unknown; trigger: unknown; goal: unknown; quiet_hours?: unknown; caps?: unknown },
): FlowDefinition & { status: Flow["status"]; steps: (Step & { id: string })[] } {
  return {
    name: f.name,
    status: f.status,
    allow_reentry: f.allowReentry,
    ...(version.trigger ? { trigger: version.trigger as Trigger } : {}),
    ...(version.goal ? { goal: version.goal as Goal } : {}),
    ...(version.quiet_hours ? { quiet_hours: version.quiet_hours as QuietHours } : {}),
    ...(version.caps ? { caps: version.caps as Caps } : {}),
    // D70: a version saved before steps had ids shows each step's path as its id (what a move matches).
    steps: withStepIds(version.steps as Step[], stepId) as (Step & { id: string })[],
  };
}

/** A flow as `GET /flows/{flow_id}` answers it (D98): its current version's document with it. */
export function flowWithDocument(
  f: FlowRow & Pick<Flow, "version" | "updatedAt" | "allowReentry">,
  version: { steps: unknown; trigger?: unknown; goal?: unknown; quiet_hours?: unknown; caps?: unknown },
): FlowWithDocument {
  const { trigger = null, goal = null, quiet_hours = null, caps = null } = version;
  return {
    ...flowView(f),
    version: f.version,
    updated_at: f.updatedAt.toISOString(),
    document: flowDocument(f, { steps: version.steps, trigger, goal, quiet_hours, caps }),
  };
}
