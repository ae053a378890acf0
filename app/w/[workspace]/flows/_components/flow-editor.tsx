"use client";

import { skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { apiFault, faultAt, type ApiFault } from "@/app/_components/api-error.ts";
import { CopyButton } from "@/app/_components/copy-button.tsx";
import { FieldError } from "@/app/_components/form-feedback.tsx";
import { useMode } from "@/app/_components/mode-switch.tsx";
import { formatCost } from "@/app/_components/money.ts";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useWorkspaceFields, useWorkspaceTags } from "@/app/_components/use-catalog.ts";
import type { Step } from "@/server/flows/flow-schemas.ts";
import { stepId, type Path } from "@/server/flows/step-path.ts";
import type { EditorContext } from "./editor-context.ts";
import { FlowCanvas, StepOutline, type CanvasProps } from "./flow-canvas.tsx";
import {
  documentJson,
  exportFileName,
  newStep,
  stepAtPosition,
  stepLabel,
  type FlowDetails,
  type FlowDocument,
  type StepType,
} from "./flow-labels.tsx";
import { faultPlace, inWords } from "./fault-words.ts";
import { GoalPanel } from "./goal-panel.tsx";
import { SavePreviewDialog } from "./save-preview-dialog.tsx";
import { ImportDialog } from "./import-dialog.tsx";
import { AddStepChooser, StepCard } from "./step-card.tsx";
import { insertStep, moveStep, removeStep, replaceStep } from "./step-edits.ts";
import { TriggerPanel } from "./trigger-panel.tsx";

type Draft = Omit<FlowDocument, "status">;

const EMPTY: Draft = { name: "", allow_reentry: false, steps: [] };

/**
 * A draft in the document's order (name, re-entry, trigger, goal, quiet hours, caps, steps), without the members it
 * lacks. Quiet hours and caps have no form here: they are kept as the document has them, so a save never drops them.
 */
function draftFrom({ name, allow_reentry, trigger, goal, quiet_hours, caps, steps }: Draft): Draft {
  return {
    name,
    allow_reentry,
    ...(trigger ? { trigger } : {}),
    ...(goal ? { goal } : {}),
    ...(quiet_hours ? { quiet_hours } : {}),
    ...(caps ? { caps } : {}),
    steps,
  };
}

function draftOf(flow: FlowDetails | null): Draft {
  return flow ? draftFrom(flow.definition) : EMPTY;
}

/** The document as exported: the flow's status (for a saved flow) and the editor's content. */
function exported(draft: Draft, flow: FlowDetails | null): FlowDocument {
  if (!flow) return draft;
  const { name, allow_reentry, ...rest } = draft;
  return { name, status: flow.status, allow_reentry, ...rest };
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

type Props = {
  workspace: string;
  /** The saved flow; null for a new one. */
  flow: FlowDetails | null;
  canManage: boolean;
  /** Whether the editor's content differs from the saved document (the status buttons wait for a save). */
  onDirty?: (dirty: boolean) => void;
};

/** Where a fault is, as the summary at the top of the editor links to it: a step, the name, the trigger or the goal. */
function faultTarget(param: string | null, steps: Step[]): { label: string; position: Path | null } | null {
  const place = faultPlace(param);
  if (!place) return null;
  if (place.position) return { label: stepLabel(steps, place.position), position: place.position };
  const top = place.field.split(".")[0];
  if (top === "name") return { label: "Name", position: null };
  if (top === "trigger") return { label: "Trigger", position: null };
  if (top === "goal") return { label: "Goal", position: null };
  return null;
}

/** What a save did, in words: the version, and with `move` how many people moved to it (the service's count, D70). */
function savedWords(answer: { version: number; runs?: { moved: number; completed: number } }, migrate?: "keep" | "move"): string {
  const saved = `Saved. The flow is at version ${answer.version}.`;
  if (migrate !== "move") return saved;
  if (!answer.runs) return `${saved} Its steps did not change, so nobody moved.`;
  const people = (n: number) => (n === 1 ? "1 person" : `${n.toLocaleString("en-US")} people`);
  const { moved, completed } = answer.runs;
  return `${saved} ${people(moved)} moved to it${completed ? `; ${people(completed)} left the journey because their step is gone` : ""}.`;
}

/** After a step is deleted: its previous sibling, else the step that holds its path, else what took its place. */
function selectionAfterDelete(steps: Step[], position: Path): Path | null {
  const index = position[position.length - 1] as number;
  if (index > 0) return [...position.slice(0, -1), index - 1];
  if (position.length > 1) return position.slice(0, -2);
  return steps.length > 0 ? [0] : null;
}

/**
 * The visual editor of a D37 document: name, re-entry, the trigger and goal (D62, D64), and the
 * steps drawn as a graph (an outline on phones); the selected step's form beside it.
 * Saving creates or updates the flow; the server's fault is said in words (fault-words.ts) at
 * its field, and summed up at the top with a link to it. The document can be exported
 * (download, copy) and a JSON document imported into the editor.
 * Support staff, and everyone on an archived flow, see it read-only.
 */
export function FlowEditor({ workspace, flow, canManage, onDirty }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const id = useId();
  const tags = useWorkspaceTags();
  const fields = useWorkspaceFields();
  const [draft, setDraftState] = useState<Draft>(() => draftOf(flow));
  const [saved, setSaved] = useState<string>(() => JSON.stringify(draftOf(flow)));
  const [done, setDone] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  // The step whose form is open beside the canvas (the first one to begin with), or where a new step goes.
  const [selected, setSelected] = useState<Path | null>(() => (draftOf(flow).steps.length > 0 ? [0] : null));
  const [adding, setAdding] = useState<{ list: Path; index: number; where: string } | null>(null);
  const focusNext = useRef<"heading" | "invalid" | null>(null);
  const panelHeading = useRef<HTMLHeadingElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  // D70: saving a flow that has left draft first shows what happens to the people already in it.
  const [previewing, setPreviewing] = useState(false);
  // The preview's refusal of the document: shown as a refused save is, at its field.
  const [previewFault, setPreviewFault] = useState<ApiFault | null>(null);
  const create = useMutation(trpc.flows.create.mutationOptions());
  const update = useMutation(trpc.flows.update.mutationOptions());
  // D69: each step's numbers on its node, from the statistics the page shows below (one query).
  // The nodes' numbers: runs of the mode the top bar's switch shows.
  const mode = useMode();
  const stats = useQuery({ ...trpc.flows.modeStats.queryOptions(flow ? { flow_id: flow.id, mode } : skipToken), refetchInterval: 5_000 });
  const mutation = flow ? update : create;
  const fault = mutation.isError ? inWords(apiFault(mutation.error)) : previewFault;
  const readOnly = !canManage || flow?.status === "archived";
  const dirty = JSON.stringify(draft) !== saved;

  // Focus follows a selection made by the reader: the form's heading, or the field a fault names.
  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = null;
    // The last control marked: a condition's tag picker rather than the condition's kind, which the same fault marks.
    const invalid = target === "invalid" ? [...(panel.current?.querySelectorAll<HTMLElement>('[aria-invalid="true"]') ?? [])].pop() : null;
    const control = invalid instanceof HTMLFieldSetElement ? invalid.querySelector<HTMLElement>("input") : invalid;
    (control ?? panelHeading.current)?.focus();
  });

  function setDraft(next: Draft) {
    setDraftState(next);
    setDone(null);
    onDirty?.(JSON.stringify(next) !== saved);
  }
  const setSteps = (steps: Step[]) => setDraft({ ...draft, steps });

  function select(position: Path | null, focus: "heading" | "invalid" = "heading") {
    setAdding(null);
    setSelected(position);
    focusNext.current = position ? focus : null;
  }

  function openAdd(list: Path, index: number, label: string) {
    setAdding({ list, index, where: label.replace(/^Add a step /, "") });
    focusNext.current = "heading";
  }

  function add(type: StepType) {
    if (!adding) return;
    setSteps(insertStep(draft.steps, adding.list, adding.index, newStep(type)));
    select([...adding.list, adding.index]);
  }

  const context: EditorContext = { tags: tags.data ?? [], fields: fields.data ?? [], fault, readOnly };
  const nameError = faultAt(fault, "name");
  const target = faultTarget(fault?.param ?? null, draft.steps);
  const json = documentJson(exported(draft, flow));
  const step = selected ? stepAtPosition(draft.steps, selected) : undefined;

  const current = stats.data?.versions.find((v) => v.version === flow?.version);
  const byStep = new Map((current?.steps ?? []).map((s) => [s.id, s]));
  const numbers: CanvasProps["numbers"] = (s, position) => {
    const n = stats.data && byStep.get(stepId(s, position));
    if (!stats.data) return undefined;
    return { reached: n?.reached ?? 0, waiting: n?.waiting ?? 0, skipped: Object.values(n?.skipped ?? {}).reduce((a, b) => a + b, 0) };
  };
  const canvas: CanvasProps = {
    steps: draft.steps,
    selected,
    onSelect: (position) => select(position),
    onAdd: readOnly ? undefined : openAdd,
    numbers: flow ? numbers : undefined,
    faulty: faultPlace(fault?.param)?.position ?? null,
    tags: context.tags,
  };

  function onSave() {
    setPreviewFault(null);
    if (flow?.status === "active" || flow?.status === "paused") {
      update.reset();
      setPreviewing(true);
    } else save();
  }

  /** The preview refused the document: the dialog closes and the editor says why, at the field. */
  function onPreviewFault(error: unknown) {
    setPreviewing(false);
    setPreviewFault(inWords(apiFault(error)));
    showFault(error);
  }

  /** A refused save: the faulty step's form opens, its field focused. */
  function showFault(error: unknown) {
    const position = faultPlace(apiFault(error).param)?.position;
    if (position && stepAtPosition(draft.steps, position)) select(position, "invalid");
  }

  function save(migrate?: "keep" | "move") {
    setDone(null);
    setPreviewFault(null);
    // The runs (their version and step) and the statistics change with a move.
    const refresh = () =>
      Promise.all([
        queryClient.invalidateQueries(trpc.flows.all.queryFilter()),
        flow ? queryClient.invalidateQueries(trpc.flows.get.queryFilter({ flow_id: flow.id })) : null,
        flow ? queryClient.invalidateQueries(trpc.flows.runs.queryFilter()) : null,
        flow ? queryClient.invalidateQueries(trpc.flows.modeStats.queryFilter()) : null,
      ]);
    if (flow) {
      update.mutate(
        { flow_id: flow.id, definition: migrate ? { ...draft, migrate } : draft },
        {
          onSuccess: async (answer) => {
            setPreviewing(false);
            await refresh();
            // The document as stored (D70: an id on every step the draft gave none, e.g. an imported one): the next
            // save starts from it, so those steps keep their ids.
            const stored = draftOf(await queryClient.fetchQuery(trpc.flows.get.queryOptions({ flow_id: flow.id })));
            setDraftState(stored);
            setSaved(JSON.stringify(stored));
            onDirty?.(false);
            setDone(savedWords(answer, migrate));
          },
          onError: (error) => {
            setPreviewing(false);
            showFault(error);
          },
        },
      );
    } else {
      create.mutate(
        { definition: draft },
        {
          onSuccess: async (answer) => {
            setSaved(JSON.stringify(draft));
            await refresh();
            router.push(`/w/${encodeURIComponent(workspace)}/flows/${answer.flow_id}?created=1`);
          },
          onError: showFault,
        },
      );
    }
  }

  function onImport(value: unknown) {
    const doc = value as Partial<FlowDocument>;
    setImporting(false);
    const object = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? v : undefined);
    const steps = Array.isArray(doc.steps) ? doc.steps : [];
    setDraft(
      draftFrom({
        name: typeof doc.name === "string" ? doc.name : draft.name,
        allow_reentry: typeof doc.allow_reentry === "boolean" ? doc.allow_reentry : false,
        trigger: object(doc.trigger) as FlowDocument["trigger"],
        goal: object(doc.goal) as FlowDocument["goal"],
        quiet_hours: object(doc.quiet_hours) as FlowDocument["quiet_hours"],
        caps: object(doc.caps) as FlowDocument["caps"],
        steps,
      }),
    );
    select(steps.length > 0 ? [0] : null);
    setDone("Document imported into the editor: save to keep it.");
  }

  return (
    <section className="section flow-editor" aria-labelledby={`${id}-heading`}>
      <div className="section-head">
        <h2 id={`${id}-heading`}>Definition</h2>
        <div className="header-actions">
          {!readOnly && (
            <button type="button" className="button" onClick={() => setImporting(true)}>
              Import JSON…
            </button>
          )}
          <button type="button" className="button" onClick={() => download(exportFileName(draft.name), json)}>
            Download JSON
          </button>
          <CopyButton value={json} label="Copy the flow document" />
        </div>
      </div>
      {canManage && flow?.status === "archived" && <p className="note">This flow is archived: it can no longer be changed.</p>}
      {flow && flow.status !== "draft" && !readOnly && (
        <p className="muted hint">
          Saving changed steps makes a new version. Before it is saved you see what happens to the people already in the journey, and choose
          whether they stay on their version or move to the new one.
        </p>
      )}

      {fault && (
        <div role="alert" className="error fault-summary">
          <p>Not saved: fix this first.</p>
          <ul>
            <li>
              {target ? (
                <a
                  href={target.position ? "#flow-step-form" : target.label === "Name" ? `#${id}-name` : "#flow-editor-panels"}
                  onClick={(e) => {
                    if (!target.position) return;
                    e.preventDefault();
                    select(target.position, "invalid");
                  }}
                >
                  {target.label}: {fault.message}
                </a>
              ) : (
                fault.message
              )}
            </li>
          </ul>
        </div>
      )}

      <fieldset disabled={readOnly} className="editor-fields">
        <legend className="visually-hidden">Flow</legend>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={draft.name}
            maxLength={200}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
          />
          <FieldError id={`${id}-name-error`} message={nameError} />
        </div>
        <label className="choice">
          <input type="checkbox" checked={draft.allow_reentry} onChange={(e) => setDraft({ ...draft, allow_reentry: e.target.checked })} />
          Allow re-entry (a contact with an active run may be enrolled again)
        </label>
        <div className="editor-panels" id="flow-editor-panels">
          <TriggerPanel trigger={draft.trigger} onChange={(trigger) => setDraft(draftFrom({ ...draft, trigger }))} context={context} />
          <GoalPanel goal={draft.goal} onChange={(goal) => setDraft(draftFrom({ ...draft, goal }))} context={context} />
        </div>
      </fieldset>

      <h3 className="steps-heading">Steps</h3>
      <div className="canvas-layout">
        <div className="canvas-area">
          {/* D89: the cost is the version's, not a step's: it heads the canvas whose nodes carry the version's numbers. */}
          {current?.cost && (
            <p className="canvas-cost">
              Version {current.version}, {mode} mode: estimated WhatsApp cost <strong>{formatCost(current.cost)}</strong>
            </p>
          )}
          <FlowCanvas {...canvas} />
          <StepOutline {...canvas} />
        </div>
        <div className="canvas-panel" id="flow-step-form" ref={panel}>
          {adding ? (
            <AddStepChooser where={adding.where} onAdd={add} onCancel={() => select(selected)} headingRef={panelHeading} />
          ) : step && selected ? (
            <StepCard
              key={selected.join(".")}
              step={step}
              steps={draft.steps}
              position={selected}
              first={selected[selected.length - 1] === 0}
              last={stepAtPosition(draft.steps, [...selected.slice(0, -1), (selected[selected.length - 1] as number) + 1]) === undefined}
              context={context}
              onChange={(s) => setSteps(replaceStep(draft.steps, selected, s))}
              onMove={(by) => {
                setSteps(moveStep(draft.steps, selected, by));
                select([...selected.slice(0, -1), (selected[selected.length - 1] as number) + by]);
              }}
              onDelete={() => {
                const steps = removeStep(draft.steps, selected);
                setSteps(steps);
                select(selectionAfterDelete(steps, selected));
              }}
              headingRef={panelHeading}
            />
          ) : (
            <p className="muted canvas-hint">
              {draft.steps.length === 0 && !readOnly
                ? "No steps yet: add the first one with the + after Start."
                : "Select a step to see its settings."}
            </p>
          )}
        </div>
      </div>

      {!readOnly && (
        <div className="form-actions editor-actions">
          <button type="button" className="button primary" onClick={onSave} disabled={mutation.isPending || (Boolean(flow) && !dirty)}>
            {mutation.isPending ? "Saving…" : flow ? "Save changes" : "Create flow"}
          </button>
          {flow && dirty && <span className="muted">Unsaved changes.</span>}
        </div>
      )}
      <p role="status" className="ok">
        {done ?? ""}
      </p>

      <details className="json-view">
        <summary>Flow document (JSON)</summary>
        {/* Focusable: a long document scrolls inside it, and keyboards scroll it too. */}
        <pre aria-label="Flow document" tabIndex={0}>
          {json}
        </pre>
      </details>

      {previewing && flow && (
        <SavePreviewDialog
          flowId={flow.id}
          draft={draft}
          savedSteps={flow.definition.steps}
          saving={update.isPending}
          onSave={save}
          onFault={onPreviewFault}
          onClose={() => setPreviewing(false)}
        />
      )}

      {importing && (
        <ImportDialog
          title="Import JSON into the editor"
          intro="The document replaces the editor's name, re-entry, trigger, goal, quiet hours, caps and steps; nothing is saved until you save. Its status is ignored: use the status buttons."
          confirmLabel="Load into the editor"
          pending={false}
          error={null}
          onImport={onImport}
          onClose={() => setImporting(false)}
        />
      )}
    </section>
  );
}
