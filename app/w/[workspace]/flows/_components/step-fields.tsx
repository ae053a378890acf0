"use client";

import { isoDurationWords } from "@/app/_components/duration.ts";
import { useId } from "react";
import type { CustomField } from "@/server/fields/field-schemas.ts";
import type { BranchStep, Condition, SetFieldStep, Step, TagStep, WaitStep } from "@/server/flows/flow-schemas.ts";
import { controlA11y, type EditorContext } from "./editor-context.ts";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";

/** The props of a step type's controls. */
export type StepFieldsProps<S extends Step> = {
  step: S;
  onChange: (step: Step) => void;
  /** The step's path, `steps.2` or `steps.2.then.0`: its controls' params hang off it. */
  param: string;
  /** The id of the step's fault message, which an invalid control names. */
  errorId: string;
  context: EditorContext;
};

const WAIT_PRESETS = [
  { duration: "PT5M", label: "5 minutes" },
  { duration: "PT1H", label: "1 hour" },
  { duration: "P1D", label: "1 day" },
  { duration: "P3D", label: "3 days" },
  { duration: "P7D", label: "1 week" },
] as const;

/** A `datetime-local` value (the reader's time) for an ISO timestamp, and back. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
function fromLocalInput(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

type DurationProps = {
  label: string;
  value: string;
  /** The duration in words as a sentence ("Waits 5 minutes."). */
  words: (words: string) => string;
  presets: readonly { duration: string; label: string }[];
  onChange: (duration: string) => void;
  a11y: ReturnType<typeof controlA11y>;
  readOnly: boolean;
  hint?: string;
  placeholder?: string;
};

/** An ISO 8601 duration, said in words as it is typed, with presets (a wait's duration, a wait_for's timeout and lookback). */
export function DurationField({ label, value, words, presets, onChange, a11y, readOnly, hint, placeholder = "PT1H" }: DurationProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value.trim().toUpperCase())}
        placeholder={placeholder}
        spellCheck={false}
        {...a11y}
      />
      <span className="duration-words">{value ? words(isoDurationWords(value)) : ""}</span>
      <span className="muted hint">{hint ?? "ISO 8601: PT30M is 30 minutes, PT1H an hour, P2D two days."}</span>
      {!readOnly && (
        <div className="presets" role="group" aria-label={`${label} presets`}>
          {presets.map((p) => (
            <button
              key={p.duration}
              type="button"
              className="button small"
              aria-pressed={value === p.duration}
              onClick={() => onChange(p.duration)}
            >
              {p.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** `wait`: an ISO 8601 duration (with presets) or a time to wait until. */
export function WaitStepFields({ step, onChange, param, errorId, context }: StepFieldsProps<WaitStep>) {
  const id = useId();
  const byDuration = step.until === undefined;
  return (
    <div className="step-fields">
      <fieldset>
        <legend>Wait</legend>
        <label className="choice">
          <input
            type="radio"
            name={`${id}-mode`}
            checked={byDuration}
            onChange={() => onChange({ type: "wait", duration: step.duration ?? "PT1H" })}
          />
          For a duration
        </label>
        <label className="choice">
          <input
            type="radio"
            name={`${id}-mode`}
            checked={!byDuration}
            onChange={() => onChange({ type: "wait", until: new Date(Date.now() + 86_400_000).toISOString() })}
          />
          Until a date and time
        </label>
      </fieldset>
      {byDuration ? (
        <DurationField
          label="Duration"
          value={step.duration ?? ""}
          words={(w) => `Waits ${w}.`}
          presets={WAIT_PRESETS}
          onChange={(duration) => onChange({ type: "wait", duration })}
          a11y={controlA11y(context, `${param}.duration`, errorId)}
          readOnly={context.readOnly}
        />
      ) : (
        <div className="field">
          <label htmlFor={`${id}-until`}>Until</label>
          <input
            id={`${id}-until`}
            type="datetime-local"
            value={toLocalInput(step.until)}
            onChange={(e) => onChange({ type: "wait", until: fromLocalInput(e.target.value) })}
            {...controlA11y(context, `${param}.until`, errorId)}
          />
          <span className="muted hint">In your time zone; saved as a UTC timestamp ({step.until ?? "none"}).</span>
        </div>
      )}
    </div>
  );
}

type ConditionKind = "has_tag" | "field_equals" | "field_exists" | "opted_out";
const CONDITION_LABEL: Record<ConditionKind, string> = {
  has_tag: "The contact has a tag",
  field_equals: "A custom field equals a value",
  field_exists: "A custom field has a value",
  opted_out: "The contact opted out of a channel",
};

function conditionKind(condition: Condition): ConditionKind {
  if ("has_tag" in condition) return "has_tag";
  if ("opted_out" in condition) return "opted_out";
  return "exists" in condition ? "field_exists" : "field_equals";
}

function newCondition(kind: ConditionKind, field: string): Condition {
  switch (kind) {
    case "has_tag":
      return { has_tag: "" };
    case "field_equals":
      return { field, equals: "" };
    case "field_exists":
      return { field, exists: true };
    case "opted_out":
      return { opted_out: "whatsapp" };
  }
}

/** A value typed as its custom field's type: numbers and booleans as JSON numbers and booleans. */
function typedValue(raw: string, type: CustomField["type"] | undefined): string | number | boolean {
  if (type === "boolean") return raw === "true";
  if (type === "number" && raw.trim() !== "" && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}

/** The input for a value of a custom field, by the field's type. */
function FieldValueInput(props: {
  id: string;
  label: string;
  value: string | number | boolean | null;
  field: CustomField | undefined;
  onChange: (value: string | number | boolean) => void;
  a11y: ReturnType<typeof controlA11y>;
}) {
  const { id, label, value, field, onChange, a11y } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {field?.type === "boolean" ? (
        <select id={id} value={String(value === true)} onChange={(e) => onChange(e.target.value === "true")} {...a11y}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      ) : (
        <input
          id={id}
          type={field?.type === "number" ? "number" : field?.type === "date" ? "date" : "text"}
          value={value === null ? "" : String(value)}
          onChange={(e) => onChange(typedValue(e.target.value, field?.type))}
          {...a11y}
        />
      )}
    </div>
  );
}

function FieldPicker(props: {
  id: string;
  value: string;
  fields: CustomField[];
  onChange: (key: string) => void;
  a11y: ReturnType<typeof controlA11y>;
}) {
  const { id, value, fields, onChange, a11y } = props;
  const known = fields.some((f) => f.key === value);
  return (
    <div className="field">
      <label htmlFor={id}>Field</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} {...a11y}>
        <option value="">Choose a field</option>
        {!known && value && <option value={value}>{value} (unknown)</option>}
        {fields.map((f) => (
          <option key={f.key} value={f.key}>
            {f.name} ({f.key})
          </option>
        ))}
      </select>
    </div>
  );
}

/** `branch`: its condition (the tag, field and channel pickers); the step lists are drawn by the card. */
export function BranchStepFields({ step, onChange, param, errorId, context }: StepFieldsProps<BranchStep>) {
  const id = useId();
  const kind = conditionKind(step.if);
  const condition = step.if;
  const setIf = (next: Condition) => onChange({ ...step, if: next });
  const fieldKey = "field" in condition ? condition.field : "";
  const field = context.fields.find((f) => f.key === fieldKey);
  return (
    <div className="step-fields">
      <div className="field">
        <label htmlFor={`${id}-kind`}>If</label>
        <select
          id={`${id}-kind`}
          value={kind}
          onChange={(e) => setIf(newCondition(e.target.value as ConditionKind, fieldKey))}
          {...controlA11y(context, `${param}.if`, errorId)}
        >
          {(Object.keys(CONDITION_LABEL) as ConditionKind[]).map((k) => (
            <option key={k} value={k}>
              {CONDITION_LABEL[k]}
            </option>
          ))}
        </select>
      </div>
      {"has_tag" in condition && (
        <div className="field">
          <label htmlFor={`${id}-tag`}>Tag</label>
          <select
            id={`${id}-tag`}
            value={condition.has_tag}
            onChange={(e) => setIf({ has_tag: e.target.value })}
            {...controlA11y(context, `${param}.if.has_tag`, errorId)}
          >
            <option value="">Choose a tag</option>
            {!context.tags.some((t) => t.id === condition.has_tag) && condition.has_tag && (
              <option value={condition.has_tag}>{condition.has_tag} (unknown)</option>
            )}
            {context.tags.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {"field" in condition && (
        <FieldPicker
          id={`${id}-field`}
          value={condition.field}
          fields={context.fields}
          onChange={(key) => setIf("exists" in condition ? { field: key, exists: true } : { field: key, equals: condition.equals })}
          a11y={controlA11y(context, `${param}.if.field`, errorId)}
        />
      )}
      {"equals" in condition && (
        <FieldValueInput
          id={`${id}-equals`}
          label="Equals"
          value={condition.equals}
          field={field}
          onChange={(equals) => setIf({ field: condition.field, equals })}
          a11y={controlA11y(context, `${param}.if.equals`, errorId)}
        />
      )}
      {"opted_out" in condition && (
        <div className="field">
          <label htmlFor={`${id}-channel`}>Channel</label>
          <select
            id={`${id}-channel`}
            value={condition.opted_out}
            onChange={(e) => setIf({ opted_out: e.target.value as keyof typeof CHANNEL_LABEL })}
            {...controlA11y(context, `${param}.if.opted_out`, errorId)}
          >
            {Object.entries(CHANNEL_LABEL).map(([channel, label]) => (
              <option key={channel} value={channel}>
                {label}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}

/** `tag`: the workspace's tags to add and to remove, as checkboxes. */
export function TagStepFields({ step, onChange, param, errorId, context }: StepFieldsProps<TagStep>) {
  const toggle = (side: "add" | "remove", tagId: string, on: boolean) => {
    const current = step[side] ?? [];
    const next = on ? [...current, tagId] : current.filter((t) => t !== tagId);
    const updated: TagStep = { ...step };
    if (next.length > 0) updated[side] = next;
    else delete updated[side];
    onChange(updated);
  };
  if (context.tags.length === 0) {
    return <p className="muted">This workspace has no tags yet: create them on the Tags &amp; fields page.</p>;
  }
  return (
    <div className="step-fields tag-sides">
      {(["add", "remove"] as const).map((side) => (
        <fieldset key={side} {...controlA11y(context, `${param}.${side}`, errorId)}>
          <legend>{side === "add" ? "Tags to add" : "Tags to remove"}</legend>
          {context.tags.map((t) => (
            <label key={t.id} className="choice">
              <input type="checkbox" checked={step[side]?.includes(t.id) ?? false} onChange={(e) => toggle(side, t.id, e.target.checked)} />
              {t.name}
            </label>
          ))}
        </fieldset>
      ))}
    </div>
  );
}

/** `set_field`: a custom field (picker) and its new value, typed as the field; "clear" stores null. */
export function SetFieldStepFields({ step, onChange, param, errorId, context }: StepFieldsProps<SetFieldStep>) {
  const id = useId();
  const field = context.fields.find((f) => f.key === step.key);
  const cleared = step.value === null;
  return (
    <div className="step-fields">
      <FieldPicker
        id={`${id}-key`}
        value={step.key}
        fields={context.fields}
        onChange={(key) => onChange({ ...step, key })}
        a11y={controlA11y(context, `${param}.key`, errorId)}
      />
      {!cleared && (
        <FieldValueInput
          id={`${id}-value`}
          label="Value"
          value={step.value}
          field={field}
          onChange={(value) => onChange({ ...step, value })}
          a11y={controlA11y(context, `${param}.value`, errorId)}
        />
      )}
      <label className="choice">
        <input
          type="checkbox"
          checked={cleared}
          onChange={(e) => onChange({ ...step, value: e.target.checked ? null : field?.type === "boolean" ? false : "" })}
        />
        Clear the field instead
      </label>
    </div>
  );
}
