"use client";

import { useId, type ReactNode } from "react";
import { faultAt } from "@/app/_components/api-error.ts";
import type { EditorContext } from "./editor-context.ts";

type Props = {
  title: string;
  /** The document's member the panel edits (`trigger`, `goal`): a fault at it or inside it is shown here. */
  param: string;
  /** Whether the flow has it; the checkbox adds it (with `onEnable`) or removes it. */
  enabled: boolean;
  toggleLabel: string;
  onToggle: (on: boolean) => void;
  context: EditorContext;
  /** The controls, given the id of the panel's fault message that an invalid control names. */
  children: (errorId: string) => ReactNode;
};

/** A part of the flow document besides its steps (the trigger, the goal): a checkbox that adds it, its controls, its fault. */
export function EditorPanel({ title, param, enabled, toggleLabel, onToggle, context, children }: Props) {
  const id = useId();
  const fault = faultAt(context.fault, param);
  // Read-only, a flow without it has nothing to show (the flow's page says how runs start).
  if (context.readOnly && !enabled) return null;
  return (
    <section role="group" aria-labelledby={`${id}-title`} className={fault ? "editor-panel has-fault" : "editor-panel"} data-param={param}>
      <h3 id={`${id}-title`}>{title}</h3>
      <label className="choice">
        <input type="checkbox" checked={enabled} onChange={(e) => onToggle(e.target.checked)} />
        {toggleLabel}
      </label>
      {fault && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {fault}
        </p>
      )}
      {enabled && <div className="step-fields">{children(`${id}-error`)}</div>}
    </section>
  );
}
