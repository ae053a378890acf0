import { recordEvent } from "../events/record-event.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { Mode } from "../keys/scopes.ts";
import { EVENT_OF, transitionPath, type Status } from "./transitions.ts";

export type Report = {
  status: Exclude<Status, "queued">;
  at?: Date;
  error?: string;
  providerMessageId?: string;
  /** `status` for the pipeline's own changes, `provider_report` for a provider's. */
  kind: "status" | "provider_report";
  detail?: Record<string, unknown>;
};

const TIMESTAMP: Record<Exclude<Status, "queued">, "sent_at" | "delivered_at" | "read_at" | "failed_at"> = {
  sent: "sent_at",
  delivered: "delivered_at",
  read: "read_at",
  failed: "failed_at",
};

type Row = { id: string; workspace_id: string; mode: Mode; channel: "whatsapp" | "email"; contact_id: string; status: Status };

/**
 * Applies a status change or provider report to a message in the caller's transaction (D8):
 * the report always goes to the history; the status only moves forward, passing through
 * `delivered` when a `read` arrives for a `sent` message; each state reached sets its
 * timestamp and records its `mensagem.*` event, in order. Returns whether the status changed.
 */
export async function applyReport(tx: Prisma.TransactionClient, messageId: string, report: Report): Promise<boolean> {
  const [m] = await tx.$queryRaw<Row[]>`
    SELECT id, workspace_id, mode::text AS mode, channel::text AS channel, contact_id, status::text AS status
    FROM messages WHERE id = ${messageId} FOR UPDATE`;
  if (!m) return false;
  const at = report.at ?? new Date();
  const path = transitionPath(m.status, report.status);
  await tx.messageHistory.create({
    data: {
      messageId,
      at,
      kind: report.kind,
      status: report.status,
      detail: {
        ...(report.detail ?? {}),
        ...(report.error ? { error: report.error } : {}),
        applied: path.length > 0,
      } as Prisma.InputJsonObject,
    },
  });
  const final = path[path.length - 1];
  if (!final) return false;
  const recordedAt = new Date();
  // A provider's time (whole seconds for WhatsApp) never puts a state before the previous one.
  const floor = "greatest($2, created_at, coalesce(sent_at, created_at), coalesce(delivered_at, created_at))";
  const sets = path.map((s) => `${TIMESTAMP[s]} = coalesce(${TIMESTAMP[s]}, ${floor})`).join(", ");
  await tx.$executeRawUnsafe(
    `UPDATE messages SET status = $3::"MessageStatus", ${sets}, error = coalesce($4, error), provider_message_id = coalesce($5, provider_message_id) WHERE id = $1`,
    messageId,
    at,
    final,
    final === "failed" ? (report.error ?? "failed") : null,
    report.providerMessageId ?? null,
  );
  for (const [i, status] of path.entries()) {
    await recordEvent(tx, {
      workspaceId: m.workspace_id,
      mode: m.mode,
      name: EVENT_OF[status],
      data: {
        id: m.id,
        channelType: m.channel,
        status,
        contact: m.contact_id,
        ...(status === "failed" ? { error: report.error ?? "failed" } : {}),
      },
      contactId: m.contact_id,
      // Recorded now (a provider's time can be seconds behind), one millisecond apart, so the
      // log orders mensagem.entregue before mensagem.lida (D8).
      at: new Date(recordedAt.getTime() + i),
    });
  }
  return true;
}
