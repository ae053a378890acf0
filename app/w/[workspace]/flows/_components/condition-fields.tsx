"use client";

import { useId } from "react";
import type { EventCondition, Json, PropertyCondition } from "@/server/contact-events/conditions.ts";
import { controlA11y, type EditorContext } from "./editor-context.ts";
import { operatorOf } from "./event-words.ts";

// A trigger's `where` (D62): one condition on the event's properties, or `all` / `any` of them,
// nested up to 3 levels (D84). Each control names its place in the document, so the server's
// fault (`trigger.where.any.1.gt`) marks the row it is about.

type Group = { all: EventCondition[] } | { any: EventCondition[] };
type Mode = "all" | "any";

/** D84: a group holds groups down to this depth (the top group is 0). */
const MAX_GROUP_DEPTH = 2;

/** The operator choices: `exists` is two of them, "is present" and "is missing". */
const OPERATORS = [
  { value: "equals", label: "is" },
  { value: "not_equals", label: "is not" },
  { value: "gt", label: "is greater than" },
  { value: "gte", label: "is at least" },
  { value: "lt", label: "is less than" },
  { value: "lte", label: "is at most" },
  { value: "contains", label: "contains" },
  { value: "exists", label: "is present" },
  { value: "missing", label: "is missing" },
] as const;

type ValueType = "text" | "number" | "boolean";

const isGroup = (c: EventCondition): c is Group => "all" in c || "any" in c;
const modeOf = (g: Group): Mode => ("all" in g ? "all" : "any");
const listOf = (g: Group): EventCondition[] => ("all" in g ? g.all : g.any);
const groupOf = (mode: Mode, list: EventCondition[]): Group => (mode === "all" ? { all: list } : { any: list });
const newCondition = (): PropertyCondition => ({ property: "", equals: "" });

const typeOf = (value: Json | undefined): ValueType =>
  typeof value === "number" ? "number" : typeof value === "boolean" ? "boolean" : "text";

/** A value of `type` from the one before: a number from its text (NaN, shown empty and refused on save, when it is none). */
function convert(value: Json | undefined, type: ValueType): Json {
  if (type === "number") return typeof value === "number" ? value : Number(String(value ?? "").trim() || Number.NaN);
  if (type === "boolean") return value === true || value === "true";
  return value === null || value === undefined ? "" : String(value);
}

type RowProps = {
  condition: PropertyCondition;
  onChange: (condition: PropertyCondition) => void;
  onRemove: () => void;
  /** The condition's path: `trigger.where`, `trigger.where.any.1`. */
  param: string;
  errorId: string;
  context: EditorContext;
};

/** One condition: a property, an operator and (but for present / missing) a typed value. */
function ConditionRow({ condition, onChange, onRemove, param, errorId, context }: RowProps) {
  const id = useId();
  const op = operatorOf(condition) ?? "equals";
  const operand = condition[op as keyof PropertyCondition] as Json | undefined;
  const choice = op === "exists" && operand === false ? "missing" : op;
  const a11y = (at: string) => controlA11y(context, at ? `${param}.${at}` : param, errorId);
  const withOperator = (next: string) => {
    if (next === "exists" || next === "missing") return onChange({ property: condition.property, exists: next === "exists" });
    const value = op === "exists" ? "" : operand;
    const ordered = next === "gt" || next === "gte" || next === "lt" || next === "lte";
    onChange({ property: condition.property, [next]: ordered && typeof value === "boolean" ? "" : (value ?? "") });
  };
  const type = typeOf(operand);
  const setValue = (value: Json) => onChange({ property: condition.property, [op]: value });
  return (
    <div className="condition-row">
      <div className="field">
        <label htmlFor={`${id}-property`}>Property</label>
        <input
          id={`${id}-property`}
          value={condition.property}
          placeholder="total"
          spellCheck={false}
          onChange={(e) => onChange({ ...condition, property: e.target.value.trim() })}
          {...a11y("property")}
        />
      </div>
      <div className="field operator">
        <label htmlFor={`${id}-operator`}>Operator</label>
        <select id={`${id}-operator`} value={choice} onChange={(e) => withOperator(e.target.value)} {...a11y(op)}>
          {OPERATORS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      {op !== "exists" && (
        <>
          <div className="field">
            <label htmlFor={`${id}-type`}>Type</label>
            <select id={`${id}-type`} value={type} onChange={(e) => setValue(convert(operand, e.target.value as ValueType))}>
              <option value="text">Text</option>
              <option value="number">Number</option>
              {(op === "equals" || op === "not_equals" || op === "contains") && <option value="boolean">Yes or no</option>}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-value`}>Value</label>
            {type === "boolean" ? (
              <select
                id={`${id}-value`}
                value={String(operand === true)}
                onChange={(e) => setValue(e.target.value === "true")}
                {...a11y(op)}
              >
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : (
              <input
                id={`${id}-value`}
                type={type === "number" ? "number" : "text"}
                value={typeof operand === "number" ? (Number.isNaN(operand) ? "" : String(operand)) : String(operand ?? "")}
                onChange={(e) => setValue(convert(e.target.value, type))}
                {...a11y(op)}
              />
            )}
          </div>
        </>
      )}
      {!context.readOnly && (
        <button
          type="button"
          className="button small"
          aria-label={`Remove the condition on ${condition.property || "a property"}`}
          onClick={onRemove}
        >
          Remove
        </button>
      )}
    </div>
  );
}

type GroupProps = {
  /** A single top-level condition is shown as a group of one, its path that of the condition itself. */
  group: Group | PropertyCondition;
  onChange: (condition: EventCondition | null) => void;
  param: string;
  depth: number;
  errorId: string;
  context: EditorContext;
};

/** `all` or `any` of a list of conditions and groups, each editable, removable; conditions and groups to add. */
function ConditionGroup({ group, onChange, param, depth, errorId, context }: GroupProps) {
  const id = useId();
  const single = !isGroup(group);
  const mode: Mode = single ? "all" : modeOf(group);
  const list = single ? [group] : listOf(group);
  const itemParam = (i: number) => (single ? param : `${param}.${mode}.${i}`);
  const write = (next: EventCondition[]) => onChange(next.length ? groupOf(mode, next) : null);
  const update = (i: number, c: EventCondition | null) => {
    if (single) return onChange(c);
    write(c ? list.map((x, j) => (j === i ? c : x)) : list.filter((_, j) => j !== i));
  };
  return (
    <div
      className={depth === 0 ? "condition-group" : "condition-group nested"}
      role="group"
      aria-label={depth === 0 ? "Conditions" : `Group at ${param}`}
    >
      <div className="field condition-mode">
        <label htmlFor={`${id}-mode`}>{depth === 0 ? "Start only when" : "This group holds when"}</label>
        <select
          id={`${id}-mode`}
          value={mode}
          onChange={(e) => onChange(groupOf(e.target.value as Mode, list))}
          {...controlA11y(context, `${param}.${mode}`, errorId, true)}
        >
          <option value="all">all of these hold</option>
          <option value="any">any of these holds</option>
        </select>
      </div>
      <ul className="condition-list">
        {list.map((c, i) => (
          <li key={i}>
            {isGroup(c) ? (
              <ConditionGroup
                group={c}
                onChange={(next) => update(i, next)}
                param={itemParam(i)}
                depth={depth + 1}
                errorId={errorId}
                context={context}
              />
            ) : (
              <ConditionRow
                condition={c}
                onChange={(next) => update(i, next)}
                onRemove={() => update(i, null)}
                param={itemParam(i)}
                errorId={errorId}
                context={context}
              />
            )}
          </li>
        ))}
      </ul>
      {!context.readOnly && (
        <div className="row-actions">
          <button type="button" className="button small" onClick={() => onChange(groupOf(mode, [...list, newCondition()]))}>
            Add a condition
          </button>
          {depth < MAX_GROUP_DEPTH && (
            <button
              type="button"
              className="button small"
              onClick={() => onChange(groupOf(mode, [...list, groupOf(mode === "all" ? "any" : "all", [newCondition()])]))}
            >
              Add a group
            </button>
          )}
          {depth > 0 && (
            <button type="button" className="button small" onClick={() => onChange(null)}>
              Remove the group
            </button>
          )}
        </div>
      )}
    </div>
  );
}

type Props = {
  where: EventCondition | undefined;
  onChange: (where: EventCondition | undefined) => void;
  errorId: string;
  context: EditorContext;
};

/** The trigger's conditions on the event's properties; none: every event of the name starts a run. */
export function ConditionFields({ where, onChange, errorId, context }: Props) {
  if (!where) {
    return (
      <div className="condition-group">
        <p className="muted hint">No conditions: every event of this name starts a run.</p>
        {!context.readOnly && (
          <div className="row-actions">
            <button type="button" className="button small" onClick={() => onChange(newCondition())}>
              Add a condition
            </button>
          </div>
        )}
      </div>
    );
  }
  return (
    <ConditionGroup
      group={where}
      onChange={(next) => onChange(next ?? undefined)}
      param="trigger.where"
      depth={0}
      errorId={errorId}
      context={context}
    />
  );
}
