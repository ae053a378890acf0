"use client";

import { useId, useState } from "react";
import type { ApiFault } from "@/app/_components/api-error.ts";
import type { Step } from "@/server/flows/flow-schemas.ts";
import type { StepList as Side } from "@/server/flows/step-path.ts";
import type { EditorContext } from "./editor-context.ts";
import { newStep, positionLabel, positionParam, STEP_TYPE_LABEL, STEP_TYPES, type StepType } from "./flow-labels.tsx";
import { BranchStepFields, SetFieldStepFields, TagStepFields, WaitStepFields } from "./step-fields.tsx";
import { SendStepFields } from "./send-step-fields.tsx";
import { WaitForStepFields } from "./wait-for-step-fields.tsx";

/** Whether the fault is this step's own (not one of a nested step of its branch or wait_for paths). */
function ownFault(fault: ApiFault | null, param: string): boolean {
  const at = fault?.param;
  if (!at) return false;
  if (at === param) return true;
  if (!at.startsWith(`${param}.`)) return false;
  return !/^(then|else|on_event|on_timeout)\.\d/.test(at.slice(param.length + 1));
}

const MESSAGE_ARRIVES: Record<string, string> = {
  delivered: "When the message is delivered",
  read: "When the message is read",
  replied: "When the contact replies",
  failed: "When the message fails",
};
/** The two paths of a step that has them, each with its heading: a branch's then/else, a wait_for's on_event/on_timeout. */
function pathsOf(step: Step): { side: Side; title: string; steps: Step[] }[] {
  if (step.type === "branch") {
    return [
      { side: "then", title: "Then (the condition holds)", steps: step.then },
      { side: "else", title: "Else", steps: step.else },
    ];
  }
  if (step.type === "wait_for") {
    const arrives = step.message ? MESSAGE_ARRIVES[step.message] : `When ${step.event ? `${step.event} arrives` : "the event arrives"}`;
    return [
      { side: "on_event", title: `${arrives} (on_event)`, steps: step.on_event },
      { side: "on_timeout", title: "If the timeout passes first (on_timeout)", steps: step.on_timeout },
    ];
  }
  return [];
}

type ListProps = {
  steps: Step[];
  onChange: (steps: Step[]) => void;
  /** The list's own position: `[]` for the flow's steps, `[2, "then"]` for a branch's, `[3, "on_timeout"]` for a wait_for's. */
  base: (number | Side)[];
  context: EditorContext;
};

/** A list of steps (the flow's, or one side of a branch): each step's editor, move up/down, delete, add. */
export function StepList({ steps, onChange, base, context }: ListProps) {
  const listName = base.length === 0 ? "Steps" : `Steps of ${positionLabel(base)}`;
  const update = (index: number, step: Step) => onChange(steps.map((s, i) => (i === index ? step : s)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...steps];
    const [step] = next.splice(index, 1);
    next.splice(index + by, 0, step!);
    onChange(next);
  };
  return (
    <div className="step-list">
      {steps.length === 0 ? (
        <p className="muted step-empty">
          {base.length === 0
            ? "No steps yet."
            : `No steps: the run goes on after the ${base[base.length - 1] === "then" || base[base.length - 1] === "else" ? "branch" : "wait"}.`}
        </p>
      ) : (
        <ol aria-label={listName} className="steps">
          {steps.map((step, index) => (
            <li key={index}>
              <StepCard
                step={step}
                position={[...base, index]}
                first={index === 0}
                last={index === steps.length - 1}
                context={context}
                onChange={(s) => update(index, s)}
                onMove={(by) => move(index, by)}
                onDelete={() => onChange(steps.filter((_, i) => i !== index))}
              />
            </li>
          ))}
        </ol>
      )}
      {!context.readOnly && (
        <AddStep label={base.length === 0 ? "" : positionLabel(base)} onAdd={(type) => onChange([...steps, newStep(type)])} />
      )}
    </div>
  );
}

function AddStep({ label, onAdd }: { label: string; onAdd: (type: StepType) => void }) {
  const id = useId();
  const [type, setType] = useState<StepType>("send");
  const where = label ? ` to ${label}` : "";
  return (
    <div className="add-step">
      <label htmlFor={id} className="visually-hidden">
        {`Type of the step to add${where}`}
      </label>
      <select id={id} value={type} onChange={(e) => setType(e.target.value as StepType)}>
        {STEP_TYPES.map((s) => (
          <option key={s.type} value={s.type}>
            {s.label}
          </option>
        ))}
      </select>
      <button type="button" className="button small" onClick={() => onAdd(type)} aria-label={`Add step${where}`}>
        Add step
      </button>
    </div>
  );
}

type CardProps = {
  step: Step;
  position: (number | Side)[];
  first: boolean;
  last: boolean;
  context: EditorContext;
  onChange: (step: Step) => void;
  onMove: (by: -1 | 1) => void;
  onDelete: () => void;
};

/** One step: its label ("Step 3 › then › 1") and type, its controls, and the server's fault when it is this step's. */
function StepCard({ step, position, first, last, context, onChange, onMove, onDelete }: CardProps) {
  const label = positionLabel(position);
  const param = positionParam(position);
  const errorId = useId();
  const faulty = ownFault(context.fault, param);
  const fields = { param, errorId, context };
  return (
    <section role="group" aria-label={label} className={faulty ? "step-card has-fault" : "step-card"} data-param={param}>
      <div className="step-head">
        <h3>
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
      {step.type === "send" && <SendStepFields step={step} onChange={onChange} {...fields} />}
      {step.type === "wait" && <WaitStepFields step={step} onChange={onChange} {...fields} />}
      {step.type === "tag" && <TagStepFields step={step} onChange={onChange} {...fields} />}
      {step.type === "set_field" && <SetFieldStepFields step={step} onChange={onChange} {...fields} />}
      {step.type === "exit" && <p className="muted">Ends the run here, as completed.</p>}
      {step.type === "wait_for" && <WaitForStepFields step={step} onChange={onChange} {...fields} />}
      {step.type === "branch" && <BranchStepFields step={step} onChange={onChange} {...fields} />}
      {pathsOf(step).length > 0 && (
        <div className="branch-sides">
          {pathsOf(step).map(({ side, title, steps }) => (
            <div key={side} className={`branch-side ${side}`}>
              <h4>{title}</h4>
              <StepList
                steps={steps}
                base={[...position, side]}
                context={context}
                onChange={(next) => onChange({ ...step, [side]: next } as Step)}
              />
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
