"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { CopyButton } from "@/app/_components/copy-button.tsx";
import { FieldError } from "@/app/_components/form-feedback.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useWorkspaceFields, useWorkspaceTags } from "@/app/_components/use-catalog.ts";
import type { EditorContext } from "./editor-context.ts";
import { documentJson, exportFileName, type FlowDetails, type FlowDocument } from "./flow-labels.tsx";
import { GoalPanel } from "./goal-panel.tsx";
import { ImportDialog } from "./import-dialog.tsx";
import { StepList } from "./step-list.tsx";
import { TriggerPanel } from "./trigger-panel.tsx";

type Draft = Omit<FlowDocument, "status">;

const EMPTY: Draft = { name: "", allow_reentry: false, steps: [] };

/** A draft in the document's order (name, re-entry, trigger, goal, steps), without a trigger or goal it lacks. */
function draftFrom({ name, allow_reentry, trigger, goal, steps }: Draft): Draft {
  return { name, allow_reentry, ...(trigger ? { trigger } : {}), ...(goal ? { goal } : {}), steps };
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

/** Where the server's fault is, for the sentence above the save button: a step, the trigger, the goal, or nowhere in particular. */
function faultPlace(param: string | null | undefined): string | null {
  if (param?.startsWith("steps.")) return "the step";
  if (param === "trigger" || param?.startsWith("trigger.")) return "the trigger";
  if (param === "goal" || param?.startsWith("goal.")) return "the goal";
  return null;
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

/**
 * The visual editor of a D37 document: name, re-entry, the trigger and goal (D62, D64), and the
 * steps (recursive for a branch's and a wait_for's paths).
 * Saving creates or updates the flow; the server's fault is shown at the step its `param` names.
 * The document can be exported (download, copy) and a JSON document imported into the editor.
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
  const create = useMutation(trpc.flows.create.mutationOptions());
  const update = useMutation(trpc.flows.update.mutationOptions());
  const mutation = flow ? update : create;
  const fault = mutation.isError ? apiFault(mutation.error) : null;
  const readOnly = !canManage || flow?.status === "archived";
  const dirty = JSON.stringify(draft) !== saved;

  function setDraft(next: Draft) {
    setDraftState(next);
    setDone(null);
    onDirty?.(JSON.stringify(next) !== saved);
  }

  const context: EditorContext = { tags: tags.data ?? [], fields: fields.data ?? [], fault, readOnly };
  const nameError = faultAt(fault, "name");
  const place = faultPlace(fault?.param);
  const general = fault && !place && !nameError ? fault.message : null;
  const json = documentJson(exported(draft, flow));

  function onSave() {
    setDone(null);
    const refresh = () =>
      Promise.all([
        queryClient.invalidateQueries(trpc.flows.all.queryFilter()),
        flow ? queryClient.invalidateQueries(trpc.flows.get.queryFilter({ flow_id: flow.id })) : null,
      ]);
    if (flow) {
      update.mutate(
        { flow_id: flow.id, definition: draft },
        {
          onSuccess: async (answer) => {
            setSaved(JSON.stringify(draft));
            onDirty?.(false);
            await refresh();
            setDone(`Saved. The flow is at version ${answer.version}.`);
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
        },
      );
    }
  }

  function onImport(value: unknown) {
    const doc = value as Partial<FlowDocument>;
    setImporting(false);
    const object = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? v : undefined);
    setDraft(
      draftFrom({
        name: typeof doc.name === "string" ? doc.name : draft.name,
        allow_reentry: typeof doc.allow_reentry === "boolean" ? doc.allow_reentry : false,
        trigger: object(doc.trigger) as FlowDocument["trigger"],
        goal: object(doc.goal) as FlowDocument["goal"],
        steps: Array.isArray(doc.steps) ? doc.steps : [],
      }),
    );
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
        <p className="muted hint">Saving changed steps makes a new version; runs already started keep theirs.</p>
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
        <div className="editor-panels">
          <TriggerPanel trigger={draft.trigger} onChange={(trigger) => setDraft(draftFrom({ ...draft, trigger }))} context={context} />
          <GoalPanel goal={draft.goal} onChange={(goal) => setDraft(draftFrom({ ...draft, goal }))} context={context} />
        </div>
        <h3 className="steps-heading">Steps</h3>
        <StepList steps={draft.steps} base={[]} context={context} onChange={(steps) => setDraft({ ...draft, steps })} />
      </fieldset>

      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
      {place && (
        <p role="alert" className="error">
          Not saved: fix {place} marked above ({fault?.param}).
        </p>
      )}
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

      {importing && (
        <ImportDialog
          title="Import JSON into the editor"
          intro="The document replaces the editor's name, re-entry, trigger, goal and steps; nothing is saved until you save. Its status is ignored: use the status buttons."
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
