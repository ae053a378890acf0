import { useId } from "react";

const count = new Intl.NumberFormat();

export type Segment = { label: string; value: number; color: string };

type Props = {
  label: string;
  value: number;
  /** The limit; null draws no bar ("no limit"). */
  max: number | null;
  /** Parts of `value` drawn in their own colors (e.g. per channel), named in the value text. */
  segments?: Segment[];
};

/** Usage against a limit as a progress bar, colored as it nears (80 %) and reaches the limit. */
export function UsageBar({ label, value, max, segments }: Props) {
  const id = useId();
  const parts = segments?.length ? ` (${segments.map((s) => `${s.label} ${count.format(s.value)}`).join(", ")})` : "";
  if (max === null) {
    return (
      <div className="usage-bar">
        <div className="usage-bar-label">
          <span id={id}>{label}</span>
          <span>
            {count.format(value)}
            {parts} · no monthly limit
          </span>
        </div>
      </div>
    );
  }
  const ratio = max > 0 ? value / max : 1;
  const level = ratio >= 1 ? "full" : ratio >= 0.8 ? "high" : "normal";
  const width = (part: number) => `${Math.min(100, max > 0 ? (part / max) * 100 : 100)}%`;
  const text = `${count.format(value)} of ${count.format(max)}${parts}`;
  return (
    <div className={`usage-bar level-${level}`}>
      <div className="usage-bar-label">
        <span id={id}>{label}</span>
        <span>
          {text}
          {level === "full" && <strong className="limit-reached"> · limit reached</strong>}
        </span>
      </div>
      <div
        className="bar"
        role="progressbar"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={Math.min(value, max)}
        aria-valuetext={text}
      >
        {segments?.length ? (
          segments.map((s) => <span key={s.label} className="fill" style={{ width: width(s.value), background: s.color }} />)
        ) : (
          <span className="fill" style={{ width: width(value) }} />
        )}
      </div>
    </div>
  );
}
