// Who makes a change: the one "who" every writing domain service takes from its caller and the
// audit log records (server/audit/record-audit.ts). A dashboard request's principal
// (server/api/trpc.ts) is one of these; the operator's `svc` commands act as OPERATOR.

export type Actor =
  /** A signed-in dashboard user. */
  | { kind: "user"; userId: string; email: string }
  /** An API key (its id; the key itself is never recorded). */
  | { kind: "key"; keyId: string }
  /** The operator at the command line (`npx svc`), and the service's own first-start setup. */
  | { kind: "cli" };

export const OPERATOR: Actor = { kind: "cli" };
