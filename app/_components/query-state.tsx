"use client";

import { TRPCClientError } from "@trpc/client";
import { apiFault } from "./api-error.ts";

type Query = { isPending: boolean; isError: boolean; error: unknown; refetch?: () => unknown };

type LoadingProps = {
  /** What loads, as the sentences say it: "the events", "the run". */
  what: string;
  /** How many grey lines stand in for the content (a table's rows, a card's lines). */
  lines?: number;
};

/** Every page's loading state: a polite status for screen readers, grey lines where the content will be. */
export function Loading({ what, lines = 3 }: LoadingProps) {
  return (
    <div role="status" className="skeleton">
      <span className="visually-hidden">Loading {what}…</span>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton-line" aria-hidden="true" />
      ))}
    </div>
  );
}

/** The request id the server gave a failed call (server/api/trpc.ts errorFormatter), for support to look up in the logs. */
function requestIdOf(error: unknown): string | null {
  if (!(error instanceof TRPCClientError)) return null;
  const id = (error.data as { request_id?: unknown } | undefined)?.request_id;
  return typeof id === "string" ? id : null;
}

type LoadErrorProps = { what: string; error: unknown; onRetry?: () => unknown };

/** Every page's failed load: what could not be loaded and why, the request id, and a Retry button. */
export function LoadError({ what, error, onRetry }: LoadErrorProps) {
  const requestId = requestIdOf(error);
  return (
    <div role="alert" className="load-error">
      <p className="error">
        Could not load {what}: {apiFault(error).message}
      </p>
      {requestId && (
        <p className="muted small">
          Request id <code>{requestId}</code>
        </p>
      )}
      {onRetry && (
        <button type="button" className="button" onClick={() => void onRetry()}>
          Retry
        </button>
      )}
    </div>
  );
}

type Props = { query: Query; what: string; lines?: number };

/** A query's loading and failure as every section says them; nothing once it has data. */
export function QueryState({ query, what, lines }: Props) {
  if (query.isError) return <LoadError what={what} error={query.error} onRetry={query.refetch} />;
  if (query.isPending) return <Loading what={what} lines={lines} />;
  return null;
}
