import { recordAudit } from "../audit/record-audit.ts";
import type { Handle } from "../db/client.ts";
import { insertEvents } from "../events/record-event.ts";
import type { Caller } from "../lib/caller.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { currentCause } from "../observability/request-context.ts";
import { bumpTemplatesVersion } from "../whatsapp/templates-version.ts";

// A paused channel (D90, D93). WhatsApp's refusals 131042 (payment) and 368 (policy block) stop
// every live send on the channel: they are 409 `channel_paused`, and journeys skip with
// `no_channel`. The reputation guard (complaint_rate, bounce_rate) stops journey sends only:
// they skip with `channel_paused`, and transactional API sends go on. Either way the operator
// resumes it (`svc channel resume`, the dashboard). Pausing and resuming move the workspace's
// templates_version, since sends answer from a per-process cache of connected channels.

export const FULL_PAUSE_REASONS = ["payment", "policy"] as const;
export const GUARD_PAUSE_REASONS = ["complaint_rate", "bounce_rate"] as const;
export type PausedReason = (typeof FULL_PAUSE_REASONS)[number] | (typeof GUARD_PAUSE_REASONS)[number];

/** Whether no live send may use a channel paused for `reason` (D90). */
export function stopsEverySend(reason: string | null | undefined): boolean {
  return (FULL_PAUSE_REASONS as readonly string[]).includes(reason ?? "");
}

/**
 * D93: why journey sends on a live e-mail channel skip while the reputation guard holds it
 * (`complaint_rate`, `bounce_rate`), or null. A channel WhatsApp stopped is refused earlier,
 * where the channel is picked (`channel_paused`, skip reason `no_channel`).
 */
export async function guardPause(sql: Handle, workspaceId: string, channelId: string): Promise<string | null> {
  const [row] = await sql<{ reason: string | null }>(`SELECT paused_reason AS reason FROM channels WHERE workspace_id = $1 AND id = $2`, [
    workspaceId,
    channelId,
  ]);
  return guardReason(row?.reason);
}

/** `guardPause` of a channel whose `paused_reason` the caller has read already. */
export function guardReason(reason: string | null | undefined): string | null {
  return (GUARD_PAUSE_REASONS as readonly string[]).includes(reason ?? "") ? reason! : null;
}

/** D90: the 409 a live send on a channel WhatsApp stopped answers. */
export function channelPausedError(channel: { id: string; type: string }, reason: string) {
  return conflict(
    "channel_paused",
    `The ${channel.type} channel ${channel.id} is paused (${reason}): fix it with the provider, then resume the channel.`,
    "channel",
  );
}

/**
 * Pauses the channel for `reason` unless it is already paused (an earlier reason stands), with
 * `canal.pausado` in the same transaction. True when this call paused it.
 */
export async function pauseChannel(sql: Handle, workspaceId: string, channelId: string, reason: PausedReason): Promise<boolean> {
  const [row] = await sql<{ id: string; type: string; paused_at: Date }>(
    `UPDATE channels SET paused_at = now(), paused_reason = $3
     WHERE workspace_id = $1 AND id = $2 AND paused_at IS NULL AND disconnected_at IS NULL
     RETURNING id, type, paused_at`, // no cast here: Citus refuses a STABLE function (enum to text) in RETURNING (D87)
    [workspaceId, channelId, reason],
  );
  if (!row) return false;
  await bumpTemplatesVersion(sql, [workspaceId]);
  await insertEvents(sql, [
    {
      workspaceId,
      mode: "live",
      name: "canal.pausado",
      data: { channel_id: row.id, type: row.type, status: "paused", reason, paused_at: new Date(row.paused_at).toISOString() },
      cause: currentCause(),
    },
  ]);
  return true;
}

/**
 * `svc channel resume` and the dashboard's Resume: the channel sends again, with
 * `canal.retomado` and an audit entry by `actor` when it was paused. Resuming a channel that is
 * not paused does nothing.
 */
export async function resumeChannel(
  sql: Handle,
  workspaceId: string,
  channelId: string,
  actor: Caller,
): Promise<{ channel_id: string; status: "connected" }> {
  const [row] = await sql<{ id: string; type: string; reason: string | null; disconnected: boolean }>(
    `SELECT id, type::text AS type, paused_reason AS reason, disconnected_at IS NOT NULL AS disconnected
     FROM channels WHERE workspace_id = $1 AND id = $2 FOR UPDATE`,
    [workspaceId, channelId],
  );
  if (!row || row.disconnected) throw notFound("channel", "channel_id");
  if (row.reason) {
    await sql(`UPDATE channels SET paused_at = NULL, paused_reason = NULL WHERE workspace_id = $1 AND id = $2`, [workspaceId, channelId]);
    await bumpTemplatesVersion(sql, [workspaceId]);
    await insertEvents(sql, [
      {
        workspaceId,
        mode: "live",
        name: "canal.retomado",
        data: { channel_id: row.id, type: row.type, status: "connected", reason: row.reason },
        cause: currentCause(),
      },
    ]);
    await recordAudit(sql, actor, {
      workspaceId,
      action: "channel.resumed",
      target: { type: "channel", id: row.id },
      detail: { type: row.type, reason: row.reason },
    });
  }
  return { channel_id: row.id, status: "connected" };
}
