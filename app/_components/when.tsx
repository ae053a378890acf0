const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** A timestamp in the reader's locale and time zone; dates arrive as ISO strings over JSON. */
export function When({ value, empty = "" }: { value: Date | string | null | undefined; empty?: string }) {
  if (!value) return <span className="muted">{empty}</span>;
  const date = new Date(value);
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {dateTime.format(date)}
    </time>
  );
}
