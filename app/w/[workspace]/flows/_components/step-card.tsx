"use client";

import type { Ref } from "react";
import type { ApiFault } from "@/app/_components/api-error.ts";
import type { Step } from "@/server/flows/flow-schemas.ts";
import { useId } from "react";
import type { Path } from "@/server/flows/step-path.ts";
import { controlA11y, type EditorContext } from "./editor-context.ts";
import { positionLabel, positionParam, STEP_TYPE_LABEL, STEP_TYPES, type StepType } from "./flow-labels.tsx";
import { BranchStepFields, SetFieldStepFields, TagStepFields, WaitStepFields } from "./step-fields.tsx";
import { SendStepFields } from "./send-step-fields.tsx";
import { splitShares } from "./step-summary.ts";
import { WaitForStepFields } from "./wait-for-step-fields.tsx";

/** Whether the fault is this step's own (not one of a nested step of its branch, wait_for or split paths). */
export function ownFault(fault: ApiFault | null, param: string): boolean {
  const at = fault?.param;
  if (!at) return false;
  if (at === param) return true;
  if (!at.startsWith(`${param}.`)) return false;
  return !/^(then|else|on_event|on_timeout|paths\.\d\.steps)\.\d/.test(at.slice(param.length + 1));
}

type CardProps = {
  step: Step;
  /** The document's steps, which name the step's paths as the canvas does. */
  steps: Step[];
  position: Path;
  first: boolean;
  last: boolean;
  context: EditorContext;
  onChange: (step: Step) => void;
  onMove: (by: -1 | 1) => void;
  onDelete: () => void;
  /** The heading, focused when the step is selected on the canvas. */
  headingRef?: Ref<HTMLHeadingElement>;
};

/**
 * The form of one step, beside the canvas: its label ("Step 3 › then › 1") and type, move
 * up/down and delete, its fields, and the fault (in words) when it is this step's. The steps
 * of its paths are nodes of their own on the canvas.
 */
export function StepCard({ step, steps, position, first, last, context, onChange: change, onMove, onDelete, headingRef }: CardProps) {
  const label = positionLabel(position, steps);
  const param = positionParam(position);
  const errorId = `${param}-error`;
  const faulty = ownFault(context.fault, param);
  const fields = { param, errorId, context };
  // D70: the step keeps its id whatever its form rebuilds (a wait's form makes a new step), so runs can move to it.
  const onChange = (next: Step) => change(step.id !== undefined && next.id === undefined ? ({ ...next, id: step.id } as Step) : next);
  return (
    <section role="group" aria-label={label} className={faulty ? "step-card has-fault" : "step-card"} data-param={param}>
      <div className="step-head">
        <h3 ref={headingRef} tabIndex={-1}>
          {label} <span className="step-type">{STEP_TYPE_LABEL[step.type]}</span>
        </h3>
        {!context.readOnly && (
          <div className="row-actions">
            <button type="button" className="button small" disabled={first} onClick={() => onMove(-1)} aria-label={`Move ${label} up`}>
              ↑ Up
            </button>
            <button type="button" className="button small" disabled={last} onClick={() => onMove(1)} aria-label={`Move ${label} down`}>
              ↓ Down
            </button>
            <button type="button" className="button small danger" onClick={onDelete} aria-label={`Delete ${label}`}>
              Delete
            </button>
          </div>
        )}
      </div>
      {faulty && (
        <p id={errorId} className="field-error" role="alert">
          {context.fault?.message}
        </p>
      )}
      {/* No legend: the section names the step, and a second group of the same name would confuse. */}
      <fieldset disabled={context.readOnly} className="step-form">
        {step.type === "send" && <SendStepFields step={step} onChange={onChange} {...fields} />}
        {step.type === "wait" && <WaitStepFields step={step} onChange={onChange} {...fields} />}
        {step.type === "tag" && <TagStepFields step={step} onChange={onChange} {...fields} />}
        {step.type === "set_field" && <SetFieldStepFields step={step} onChange={onChange} {...fields} />}
        {step.type === "exit" && <p className="muted">Ends the run here, as completed.</p>}
        {step.type === "wait_for" && <WaitForStepFields step={step} onChange={onChange} {...fields} />}
        {step.type === "branch" && <BranchStepFields step={step} onChange={onChange} {...fields} />}
        {step.type === "split" && <SplitWeights step={step} onChange={onChange} {...fields} />}
        {(step.type === "branch" || step.type === "wait_for" || step.type === "split") && (
          <p className="muted hint">Its paths are drawn on the canvas: select a path&apos;s step there, or add one with its + button.</p>
        )}
      </fieldset>
    </section>
  );
}

type SplitStep = Extract<Step, { type: "split" }>;

/**
 * A random split's paths (D68): each one's weight, its share of the runs said beside it, and
 * a path added (up to 5) or removed (down to 2). A weight the service refuses is marked at its field.
 */
function SplitWeights({
  step,
  onChange,
  param,
  errorId,
  context,
}: {
  step: SplitStep;
  onChange: (step: Step) => void;
  param: string;
  errorId: string;
  context: EditorContext;
}) {
  const id = useId();
  const shares = splitShares(step.paths);
  const setPaths = (paths: SplitStep["paths"]) => onChange({ ...step, paths });
  return (
    <div className="step-fields">
      {step.paths.map((p, i) => (
        <div className="field split-path" key={i}>
          <label htmlFor={`${id}-${i}`}>Weight of path {i + 1}</label>
          <div className="split-weight">
            <input
              id={`${id}-${i}`}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={Number.isNaN(p.weight) ? "" : p.weight}
              onChange={(e) => setPaths(step.paths.map((q, j) => (j === i ? { ...q, weight: e.target.valueAsNumber } : q)))}
              {...controlA11y(context, `${param}.paths.${i}.weight`, errorId)}
            />
            <span className="muted">{Number.isInteger(p.weight) && p.weight > 0 ? `${shares[i]}% of the runs` : ""}</span>
            {!context.readOnly && step.paths.length > 2 && (
              <button
                type="button"
                className="button small"
                aria-label={`Remove path ${i + 1}`}
                onClick={() => setPaths(step.paths.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            )}
          </div>
        </div>
      ))}
      {!context.readOnly && step.paths.length < 5 && (
        <button type="button" className="button small" onClick={() => setPaths([...step.paths, { weight: 50, steps: [] }])}>
          Add a path
        </button>
      )}
      <span className="muted hint">Each contact takes one path, always the same one; the weights set the shares.</span>
    </div>
  );
}

type AddProps = {
  /** Where the step goes, in words: "after Step 3", "to Step 2 › then", "at the start". */
  where: string;
  onAdd: (type: StepType) => void;
  onCancel: () => void;
  headingRef?: Ref<HTMLHeadingElement>;
};

/** The choice of a new step's type, opened by a + on the canvas. */
export function AddStepChooser({ where, onAdd, onCancel, headingRef }: AddProps) {
  return (
    <section role="group" aria-label={`Add a step ${where}`} className="step-card add-step-chooser">
      <h3 ref={headingRef} tabIndex={-1}>
        Add a step {where}
      </h3>
      <div className="step-types">
        {STEP_TYPES.map((s) => (
          <button key={s.type} type="button" className="button" onClick={() => onAdd(s.type)}>
            {s.label}
          </button>
        ))}
      </div>
      <button type="button" className="button small quiet" onClick={onCancel}>
        Cancel
      </button>
    </section>
  );
}
