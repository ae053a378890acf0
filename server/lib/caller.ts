import type { KeyMode, Role } from "../generated/prisma/enums.ts";

// Who is doing this, whichever door it came through: the one type every layer passes down.
// REST makes a key's (server/keys/authenticate-key.ts), the dashboard a user's
// (server/auth/session-context.ts), the operator's `svc` commands and the service's own
// first-start setup pass OPERATOR, and the pipeline makes its own for a flow's send step
// (server/flows/advance-run.ts). A service takes a Caller (the writing ones hand it to the audit
// log, server/audit/record-audit.ts), or a Pick of the fields it reads.

/** The workspace a caller acts in, and what its door already read of it. */
type InWorkspace = {
  workspaceId: string;
  /** The mode its work is in (D40): a key's; a dashboard user's is `live` (D31). */
  mode: KeyMode;
  /** The workspace's default phone country when the door already read it (the key check, D1). */
  defaultCountry?: string | null;
  /** The workspace's templates_version when the door already read it (the key check; `lookUpTemplate`). */
  templatesVersion?: string;
};

export type Caller =
  /** An API key (its id; the key itself is never recorded) and the scopes it holds (D22). */
  | ({ kind: "key"; keyId: string; scopes: readonly string[] } & InWorkspace)
  /** A signed-in dashboard user, a member of the workspace with this role. */
  | ({ kind: "user"; userId: string; email: string; role: Role } & InWorkspace)
  /** The delivery pipeline, acting for a workspace (a flow run's send step). */
  | ({ kind: "pipeline" } & InWorkspace)
  /** The operator at the command line (`npx svc`), and the service's own first-start setup; its commands name their workspace. */
  | { kind: "cli" };

/** A caller acting in one workspace: every kind but the operator. */
export type CallerInWorkspace = Exclude<Caller, { kind: "cli" }>;

export const OPERATOR: Caller = { kind: "cli" };
