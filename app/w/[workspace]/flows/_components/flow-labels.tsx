import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root.ts";
import type { FlowDefinition, FlowStatus, RunStatus, Step } from "@/server/flows/flow-schemas.ts";
import { stepAt, type Path } from "@/server/flows/step-path.ts";

type Outputs = inferRouterOutputs<AppRouter>["flows"];

/** A flow as `flows.all` lists it, with its runs counted by status. */
export type FlowSummary = Outputs["all"][number];
/** A flow with its current D37 document. */
export type FlowDetails = Outputs["get"];
/** One run as `flows.runs` lists it. */
export type Run = Outputs["runs"]["items"][number];
/** One run with its history. */
export type RunDetails = Outputs["run"];

/**
 * The document the editor builds (D37, with D62's trigger, D64's goal, D65's quiet hours and D67's caps): what
 * `flows.create`/`flows.update` take and export gives. Members the editor has no form for are kept as they came.
 */
export type FlowDocument = Pick<FlowDefinition, "trigger" | "goal" | "quiet_hours" | "caps"> & {
  name: string;
  status?: FlowStatus;
  allow_reentry: boolean;
  steps: Step[];
};

export type StepType = Step["type"];
export const STEP_TYPES: { type: StepType; label: string }[] = [
  { type: "send", label: "Send a message" },
  { type: "wait", label: "Wait" },
  { type: "branch", label: "Branch (if / else)" },
  { type: "wait_for", label: "Wait for an event or a reply" },
  { type: "split", label: "Random split" },
  { type: "tag", label: "Add or remove tags" },
  { type: "set_field", label: "Set a custom field" },
  { type: "exit", label: "Exit" },
];
export const STEP_TYPE_LABEL = Object.fromEntries(STEP_TYPES.map((s) => [s.type, s.label])) as Record<StepType, string>;

/** D70: a new step's id, as the service would give it (`st_` and 8 random characters), so a save's preview names it as the editor does. */
function newStepId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `st_${btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")}`;
}

/** A new step of `type`, with its id, and empty values the author fills in (saving checks them). */
export function newStep(type: StepType): Step {
  return { id: newStepId(), ...emptyStep(type) } as Step;
}

function emptyStep(type: StepType): Step {
  switch (type) {
    case "send":
      return { type: "send", channel: "whatsapp", whatsapp: { body: "" } };
    case "wait":
      return { type: "wait", duration: "PT1H" };
    case "branch":
      return { type: "branch", if: { has_tag: "" }, then: [], else: [] };
    case "wait_for":
      return { type: "wait_for", event: "", timeout: "P1D", on_event: [], on_timeout: [] };
    case "split":
      return {
        type: "split",
        paths: [
          { weight: 50, steps: [] },
          { weight: 50, steps: [] },
        ],
      };
    case "tag":
      return { type: "tag", add: [] };
    case "set_field":
      return { type: "set_field", key: "", value: "" };
    case "exit":
      return { type: "exit" };
  }
}

/**
 * A path of a branch, wait_for or split in the words the canvas's edges use (flow-layout.ts):
 * "then", "else", "event arrived" (or "message replied" for a wait on the last message), "timed
 * out", "path 2". `holder` is the step whose path it is, when known.
 */
export function pathWords(list: string, holder?: Step): string {
  const split = /^paths\.(\d+)\.steps$/.exec(list);
  if (split) return `path ${Number(split[1]) + 1}`;
  if (list === "on_event") return holder?.type === "wait_for" && holder.message ? `message ${holder.message}` : "event arrived";
  if (list === "on_timeout") return "timed out";
  return list;
}

/**
 * A position (`[2, "on_timeout", 0]`) as people count steps and as the canvas names paths:
 * "Step 3 › timed out › 1". With the document's `steps`, a wait on a message names its path as
 * the canvas does ("message replied").
 */
export function positionLabel(position: readonly (number | string)[] | null | undefined, steps?: Step[]): string {
  if (!position || position.length === 0) return "—";
  return position
    .map((part, i) =>
      typeof part === "number"
        ? i === 0
          ? `Step ${part + 1}`
          : String(part + 1)
        : pathWords(part, steps && stepAt(steps, position.slice(0, i) as Path)),
    )
    .join(" › ");
}

/** A step named with its kind, as the editor's summary and the save's preview name it: "Step 2 › then › 1 (Send a message)". */
export function stepLabel(steps: Step[], position: readonly (number | string)[]): string {
  const step = stepAt(steps, position as Path);
  return `${positionLabel(position, steps)}${step ? ` (${STEP_TYPE_LABEL[step.type]})` : ""}`;
}

/** The step at a run's position in a document's steps, if it has one there (the engine's own lookup). */
export const stepAtPosition = (steps: Step[], position: readonly (number | string)[]): Step | undefined => stepAt(steps, position as Path);

/** A `steps.2.then.0`-style path (the server's fault `param`) for a position. */
export function positionParam(position: readonly (number | string)[]): string {
  return ["steps", ...position].join(".");
}

export function FlowStatusBadge({ status }: { status: FlowStatus }) {
  return <span className={`badge flow-status-${status}`}>{status}</span>;
}

export function RunStatusBadge({ status }: { status: RunStatus }) {
  return <span className={`badge run-status-${status}`}>{status}</span>;
}

/** Pretty JSON of a document, as exported and shown. */
export const documentJson = (document: FlowDocument): string => `${JSON.stringify(document, null, 2)}\n`;

/** The name of a downloaded export: the flow's name in kebab-case. */
export function exportFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `${slug || "flow"}.json`;
}
