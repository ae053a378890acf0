import type { Handle } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { newId } from "../lib/ids.ts";
import type { Caller } from "../lib/caller.ts";
import type { AuditAction, AuditTargetType } from "./audit-actions.ts";

// The audit log's one write. Each change of keys, webhooks, channels, flows, team membership
// or workspace settings calls it once, inside the transaction that makes the change, so the
// entry and the change commit (or roll back) together: the `Handle` of `Database.transaction`,
// or of a Prisma interactive transaction (`prismaHandle`).

export type AuditEntry = {
  workspaceId: string;
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null };
  /** A small description of the change (names, URLs, roles), never a secret or a key. */
  detail?: Prisma.InputJsonObject;
};

const INSERT = `INSERT INTO audit_events (id, workspace_id, actor_type, actor_id, actor_label, action, target_type, target_id, detail)
  VALUES ($1, $2, $3::"AuditActorType", $4, $5, $6, $7, $8, $9::jsonb)`;

export async function recordAudit(sql: Handle, actor: Caller, entry: AuditEntry): Promise<void> {
  const [actorType, actorId, actorLabel] =
    actor.kind === "user"
      ? ["user", actor.userId, actor.email]
      : actor.kind === "key"
        ? ["api_key", actor.keyId, null]
        : ["cli", null, null];
  await sql(INSERT, [
    newId("audit"),
    entry.workspaceId,
    actorType,
    actorId,
    actorLabel,
    entry.action,
    entry.target.type,
    entry.target.id,
    JSON.stringify(entry.detail ?? {}),
  ]);
}

/** A URL for the log: without user, password, query or fragment, where tokens are often carried. */
export function urlForAudit(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "";
  }
}
