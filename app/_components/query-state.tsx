import { apiFault } from "./api-error.ts";

type Props = {
  query: { isPending: boolean; isError: boolean; error: unknown };
  /** What loads, as the sentences say it: "the events", "the run". */
  what: string;
};

/** A query's loading and failure as every section says them: a polite status while it loads, an alert when it failed; nothing once it has data. */
export function QueryState({ query, what }: Props) {
  if (query.isError) {
    return (
      <p role="alert" className="error">
        Could not load {what}: {apiFault(query.error).message}
      </p>
    );
  }
  if (query.isPending) return <p role="status">Loading {what}…</p>;
  return null;
}
