const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: "medium" });
const dayOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** The day a timestamp falls on, as a list's date header says it: "Nov 27, 2026". */
export function dayOf(value: Date | string): string {
  return dayOnly.format(new Date(value));
}

type Props = {
  value: Date | string | null | undefined;
  empty?: string;
  /** In a list under date headers: the time of day only, the full date and time on hover. */
  short?: boolean;
};

/** A timestamp in the reader's locale and time zone; dates arrive as ISO strings over JSON. */
export function When({ value, empty = "", short = false }: Props) {
  if (!value) return <span className="muted">{empty}</span>;
  const date = new Date(value);
  const full = dateTime.format(date);
  return (
    <time dateTime={date.toISOString()} title={short ? full : date.toISOString()}>
      {short ? timeOnly.format(date) : full}
    </time>
  );
}
