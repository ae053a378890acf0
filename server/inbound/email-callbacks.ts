import { z } from "zod";
import { updateContact } from "../contacts/upsert-contact.ts";
import type { Database } from "../db/client.ts";
import { safeEqual } from "../lib/crypto.ts";
import { AppError } from "../lib/errors.ts";
import { applyReport } from "../messaging/apply-report.ts";
import { findMessageByProviderId } from "../messaging/find-message.ts";
import { loadChannel } from "../providers/load-channel.ts";
import { verifyToken } from "../providers/email-token.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { recordBounce, recordComplaint } from "../suppressions/email-reports.ts";

// What the e-mail callbacks do (D39, operations.md "Provider endpoints"); the routes under
// app/api/providers/email/ are thin edges over these functions.

async function emailMessage(database: Database, messageId: string) {
  // A tracking token names the message alone: found by messages' index on its id (D87: an
  // unlocked read of every shard on Citus), then written under its workspace.
  const message = await database.prisma.message.findFirst({
    where: { id: messageId },
    select: { id: true, workspaceId: true, contactId: true, channel: true, channelId: true },
  });
  return message?.channel === "email" ? message : null;
}

/** The tracking image was fetched: the message is `read` (which also sets delivered_at, D8). */
export async function recordEmailOpen(database: Database, token: string, detail: Record<string, unknown> = {}): Promise<boolean> {
  const messageId = verifyToken(token);
  if (!messageId || !(await emailMessage(database, messageId))) return false;
  const changed = await database.transaction((sql) =>
    applyReport(sql, messageId, { status: "read", kind: "provider_report", detail: { source: "open_tracking", ...detail } }),
  );
  if (changed) wakePipeline();
  return changed;
}

export type UnsubscribeOutcome = "unsubscribed" | "invalid";

/** Whether a token is valid and its message known (for the confirmation page). */
export async function unsubscribeTarget(database: Database, token: string): Promise<boolean> {
  const messageId = verifyToken(token);
  return Boolean(messageId && (await emailMessage(database, messageId)));
}

/**
 * One-click unsubscribe (RFC 8058): the message's contact gets `opt_out_email`, through the
 * contact rules, so `contato.atualizado` is recorded when it changed. Provider callbacks act
 * in `live` mode.
 */
export async function unsubscribeByToken(database: Database, token: string): Promise<UnsubscribeOutcome> {
  const messageId = verifyToken(token);
  const message = messageId ? await emailMessage(database, messageId) : null;
  if (!message) return "invalid";
  try {
    await updateContact(database, { workspaceId: message.workspaceId, mode: "live" }, message.contactId, { opt_out_email: true });
  } catch (err) {
    // The contact was deleted since: there is nobody left to send to.
    if (err instanceof AppError && err.type === "not_found") return "unsubscribed";
    throw err;
  }
  return "unsubscribed";
}

export const ZEmailEvent = z.object({
  message_id: z.string().trim().min(1).max(998).describe("Our `msg_…` id, or the SMTP Message-ID the relay reports."),
  event: z.enum(["delivered", "bounced", "soft_bounced", "complained"]),
  timestamp: z
    .union([z.number().int().nonnegative(), z.iso.datetime({ offset: true })])
    .optional()
    .describe("Unix seconds or an ISO 8601 timestamp; now when absent."),
  reason: z.string().trim().max(1000).optional().describe("Why it bounced (the remote server's reply)."),
});

export type EmailEventOutcome = { status: 200 | 400 | 401 | 404; body: Record<string, unknown> };

const MSG_IN_MESSAGE_ID = /^<?(msg_[0-9A-Za-z]+)(@[^>]*)?>?$/;

/**
 * The e-mail events endpoint (D39): a relay's delivery report for one message. The bearer
 * token is the channel's events token, `<channel id>.<random>`; the message must have been
 * sent through that channel.
 */
export async function handleEmailEvent(database: Database, authorization: string | null, body: unknown): Promise<EmailEventOutcome> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? "")?.[1];
  const channelId = token?.slice(0, Math.max(0, token.indexOf(".")));
  const channel = channelId ? await loadChannel(database, channelId, { includeDisconnected: true }).catch(() => null) : null;
  if (!token || !channel || channel.type !== "email" || !safeEqual(channel.secrets.events_token ?? "", token)) {
    return { status: 401, body: { error: "Invalid or missing events token (Authorization: Bearer <token>)." } };
  }
  const parsed = ZEmailEvent.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { status: 400, body: { error: `${issue?.path.join(".") || "body"}: ${issue?.message}` } };
  }
  const event = parsed.data;
  const messageId = await resolveMessageId(database, channel.id, event.message_id);
  if (!messageId) return { status: 404, body: { error: "No message of this channel has this id." } };
  const at =
    event.timestamp === undefined
      ? undefined
      : typeof event.timestamp === "number"
        ? new Date(event.timestamp * 1000)
        : new Date(event.timestamp);
  // D73: a bounce is permanent (fails and suppresses), a soft bounce temporary (history only),
  // a complaint suppresses the address and opts the contact out of e-mail.
  const source = { source: "email_events" as const, at, detail: { event: event.event, ...(event.reason ? { reason: event.reason } : {}) } };
  let applied: boolean;
  if (event.event === "bounced" || event.event === "soft_bounced") {
    const smtpCode = Number(/^\s*([245]\d\d)\b/.exec(event.reason ?? "")?.[1] ?? 0) || undefined;
    applied = await recordBounce(database, messageId, {
      ...source,
      permanent: event.event === "bounced",
      diagnostic: event.reason,
      smtpCode,
    });
  } else if (event.event === "complained") {
    const message = await database.prisma.message.findFirstOrThrow({
      where: { id: messageId },
      select: { id: true, workspaceId: true, contactId: true, mode: true },
    });
    await recordComplaint(database, message, source);
    applied = true;
  } else {
    applied = await database.transaction((sql) =>
      applyReport(sql, messageId, {
        status: "delivered",
        at,
        kind: "provider_report",
        detail: { source: "email_events", event: event.event },
      }),
    );
    if (applied) wakePipeline();
  }
  return { status: 200, body: { ok: true, message_id: messageId, applied } };
}

/** The message of a channel that `given` names: our `msg_…` id (bare or in a Message-ID), or the provider id the relay gave. */
export async function resolveMessageId(database: Database, channelId: string, given: string): Promise<string | null> {
  const ours = MSG_IN_MESSAGE_ID.exec(given)?.[1];
  if (ours) {
    const found = await database.prisma.message.findFirst({ where: { id: ours, channelId }, select: { id: true } });
    if (found) return found.id;
  }
  const bare = given.replace(/^<|>$/g, "");
  for (const candidate of [`<${bare}>`, bare]) {
    const found = await findMessageByProviderId(database, channelId, candidate);
    if (found) return found.id;
  }
  return null;
}
