"use client";

import { useId } from "react";
import { controlA11y, type EditorContext } from "./editor-context.ts";

type Props = {
  /** What the rows are for, as the group's name: "Match of Step 3". */
  label: string;
  match: Record<string, string> | undefined;
  /** Null when no entry is left (the document then has no `match`). */
  onChange: (match: Record<string, string> | null) => void;
  /** The match's path (`steps.3.match`, `goal.match`): an entry's fault names it by its property (`steps.3.match.order_id`). */
  param: string;
  errorId: string;
  context: EditorContext;
};

/**
 * A `match` of a wait_for step or a goal (D63, D64): rows of a property path and the text it
 * must equal, placeholders allowed (`{{run.key}}`). Rows keep their order as they are renamed.
 */
export function MatchFields({ label, match, onChange, param, errorId, context }: Props) {
  const id = useId();
  const entries = Object.entries(match ?? {});
  const write = (next: [string, string][]) => onChange(next.length ? Object.fromEntries(next) : null);
  return (
    <fieldset className="match-fields" aria-label={label}>
      <legend>Only when its properties match</legend>
      {entries.length === 0 && <p className="muted hint">Any event of that name counts.</p>}
      {entries.map(([path, text], i) => (
        <div key={i} className="match-row">
          <div className="field">
            <label htmlFor={`${id}-path-${i}`}>Property</label>
            <input
              id={`${id}-path-${i}`}
              value={path}
              placeholder="order_id"
              spellCheck={false}
              onChange={(e) => write(entries.map((entry, j) => (j === i ? [e.target.value.trim(), entry[1]] : entry)))}
              {...controlA11y(context, `${param}.${path}`, errorId)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-text-${i}`}>Equals</label>
            <input
              id={`${id}-text-${i}`}
              value={text}
              placeholder="{{run.key}}"
              spellCheck={false}
              onChange={(e) => write(entries.map((entry, j) => (j === i ? [entry[0], e.target.value] : entry)))}
              {...controlA11y(context, `${param}.${path}`, errorId)}
            />
          </div>
          {!context.readOnly && (
            <button
              type="button"
              className="button small"
              aria-label={`Remove the match on ${path || "a property"}`}
              onClick={() => write(entries.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          )}
        </div>
      ))}
      {!context.readOnly && (
        <div className="row-actions">
          <button type="button" className="button small" disabled={"" in (match ?? {})} onClick={() => write([...entries, ["", ""]])}>
            Add a property to match
          </button>
        </div>
      )}
      <p className="muted hint">
        Compared as text. A dotted path reads inside the event (<code>items.0.sku</code>); <code>{"{{run.key}}"}</code> and the run&apos;s
        other placeholders are filled in first.
      </p>
    </fieldset>
  );
}
