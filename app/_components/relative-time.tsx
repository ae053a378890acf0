const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

/** "5 minutes ago", "in 2 hours", "now": the distance from `now` in its largest whole unit. */
export function relativeTime(value: Date | string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(value).getTime() - now) / 1000);
  if (Math.abs(seconds) < 10) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(seconds, "second");
}

/**
 * A time as people scan lists: how long ago first, then the date and time in the reader's
 * locale and time zone. Rendered in the browser only (client components), so the clock is
 * the reader's.
 */
export function RelativeTime({ value }: { value: Date | string }) {
  const date = new Date(value);
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()} className="relative-time">
      <span>{relativeTime(date)}</span> <span className="muted">{absolute.format(date)}</span>
    </time>
  );
}
