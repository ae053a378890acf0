import { z } from "zod";
import type { Database } from "../db/client.ts";
import { log } from "../lib/log.ts";
import { applyReport } from "../messaging/apply-report.ts";
import { findMessageByProviderId } from "../messaging/find-message.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { loadChannel } from "../providers/load-channel.ts";
import { recordBounce, recordComplaint } from "../suppressions/email-reports.ts";
import { resolveMessageId } from "./email-callbacks.ts";
import { allowedSnsUrl, fetchBounded, FRESH_MS, SnsRejection, verifySnsMessage } from "./sns.ts";

// D73 path (2): Amazon SES notifications (Bounce, Complaint, Delivery) posted through SNS to
// `POST /api/providers/email/ses/{channel_id}` (D85). The SNS message is verified (sns.ts),
// taken once (its MessageId kept for the freshness window, so a replay changes nothing), a
// subscription confirmation is followed, and a notification is matched to the channel's
// message by SES's message id (the relay's id, the message's provider_message_id) or by the
// Message-ID among its headers. A bounce or complaint then does what it does on any path
// (suppressions/email-reports.ts); only the message's own address is ever suppressed.

export type SesOutcome = { status: 200 | 400 | 401 | 403 | 404 | 502; body: Record<string, unknown> };

const ZHeader = z.object({ name: z.string(), value: z.string() });
const ZSesNotification = z.object({
  notificationType: z.string().optional(),
  eventType: z.string().optional(),
  mail: z.object({
    messageId: z.string().max(998),
    headers: z.array(ZHeader).max(500).optional(),
    commonHeaders: z
      .object({ messageId: z.string().max(998).optional() })
      .passthrough()
      .optional(),
  }),
  bounce: z
    .object({
      bounceType: z.string(),
      bounceSubType: z.string().optional(),
      timestamp: z.string().optional(),
      bouncedRecipients: z
        .array(z.object({ status: z.string().optional(), diagnosticCode: z.string().optional() }).passthrough())
        .optional(),
    })
    .passthrough()
    .optional(),
  complaint: z.object({ complaintFeedbackType: z.string().optional(), timestamp: z.string().optional() }).passthrough().optional(),
  delivery: z.object({ timestamp: z.string().optional() }).passthrough().optional(),
});
type SesNotification = z.infer<typeof ZSesNotification>;

const MAX_SUBSCRIBE_BYTES = 64 * 1024;

/** Takes an SNS message once: false when it was already taken (a replay, or SNS sending it again). */
async function takeOnce(database: Database, snsMessageId: string, channelId: string): Promise<boolean> {
  // The rows outlive the freshness window a little, then go: an older message is refused by its timestamp.
  await database.query(
    `DELETE FROM sns_messages WHERE message_id IN (SELECT message_id FROM sns_messages WHERE received_at < $1 LIMIT 1000)`,
    [new Date(Date.now() - 2 * FRESH_MS)],
  );
  const rows = await database.query(
    `INSERT INTO sns_messages (message_id, channel_id) VALUES ($1, $2) ON CONFLICT (message_id) DO NOTHING RETURNING message_id`,
    [snsMessageId, channelId],
  );
  return rows.length > 0;
}

const forget = (database: Database, snsMessageId: string) =>
  database.query(`DELETE FROM sns_messages WHERE message_id = $1`, [snsMessageId]).catch(() => {});

const dateOf = (text: string | undefined) => (text && !Number.isNaN(Date.parse(text)) ? new Date(text) : undefined);

/** The channel's message a notification is about, or null. */
async function messageOf(database: Database, channelId: string, n: SesNotification): Promise<string | null> {
  const byRelayId = await findMessageByProviderId(database, channelId, n.mail.messageId);
  if (byRelayId) return byRelayId.id;
  const header = n.mail.commonHeaders?.messageId ?? n.mail.headers?.find((h) => h.name.toLowerCase() === "message-id")?.value;
  return header ? resolveMessageId(database, channelId, header) : null;
}

async function applyNotification(database: Database, channelId: string, n: SesNotification): Promise<Record<string, unknown>> {
  const kind = n.notificationType ?? n.eventType;
  const messageId = await messageOf(database, channelId, n);
  if (!messageId) return { ignored: "no message of this channel has this id" };
  const detail = { ses_message_id: n.mail.messageId };
  if (kind === "Bounce" && n.bounce) {
    const recipient = n.bounce.bouncedRecipients?.[0];
    const diagnostic = recipient?.diagnosticCode?.replace(/^smtp;\s*/i, "");
    const smtpCode = Number(/^\s*([245]\d\d)\b/.exec(diagnostic ?? "")?.[1] ?? 0) || undefined;
    const applied = await recordBounce(database, messageId, {
      source: "ses",
      at: dateOf(n.bounce.timestamp),
      permanent: n.bounce.bounceType === "Permanent",
      diagnostic: diagnostic ?? `${n.bounce.bounceType} bounce${n.bounce.bounceSubType ? ` (${n.bounce.bounceSubType})` : ""}`,
      smtpCode,
      detail: { ...detail, bounce_type: n.bounce.bounceType, ...(recipient?.status ? { status: recipient.status } : {}) },
    });
    return { message_id: messageId, applied };
  }
  if (kind === "Complaint" && n.complaint) {
    const message = await database.prisma.message.findFirstOrThrow({
      where: { id: messageId },
      select: { id: true, workspaceId: true, contactId: true, mode: true },
    });
    await recordComplaint(database, message, {
      source: "ses",
      at: dateOf(n.complaint.timestamp),
      feedbackType: n.complaint.complaintFeedbackType,
      detail,
    });
    return { message_id: messageId, applied: true };
  }
  if (kind === "Delivery") {
    const applied = await database.transaction((sql) =>
      applyReport(sql, messageId, {
        status: "delivered",
        at: dateOf(n.delivery?.timestamp),
        kind: "provider_report",
        detail: { source: "ses", ...detail },
      }),
    );
    if (applied) wakePipeline();
    return { message_id: messageId, applied };
  }
  return { ignored: `notification type ${String(kind)}` };
}

/** One SNS POST to a channel's SES endpoint (the route passes the raw body). */
export async function handleSesNotification(database: Database, channelId: string, raw: string): Promise<SesOutcome> {
  const channel = await loadChannel(database, channelId).catch(() => null);
  if (!channel || channel.type !== "email") return { status: 404, body: { error: "No connected e-mail channel has this id." } };
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return { status: 400, body: { error: "The body is not JSON." } };
  }
  let message;
  try {
    message = await verifySnsMessage(body);
  } catch (err) {
    if (!(err instanceof SnsRejection)) throw err;
    log().warn({ channelId, reason: err.message }, "SES notification refused");
    return { status: err.status, body: { error: err.message } };
  }
  if (!(await takeOnce(database, message.MessageId, channelId))) {
    return { status: 200, body: { ignored: "this SNS message was already taken" } };
  }
  try {
    if (message.Type === "SubscriptionConfirmation") {
      const url = allowedSnsUrl(message.SubscribeURL!);
      if (!url) {
        await forget(database, message.MessageId);
        return { status: 403, body: { error: "SubscribeURL is not an https URL on an Amazon SNS host." } };
      }
      const { status } = await fetchBounded(url, MAX_SUBSCRIBE_BYTES);
      if (status !== 200) throw new Error(`the subscribe URL answered ${status}`);
      log().info({ channelId, topic: message.TopicArn }, "SNS subscription confirmed");
      return { status: 200, body: { subscribed: true, topic_arn: message.TopicArn } };
    }
    if (message.Type === "UnsubscribeConfirmation") return { status: 200, body: { ignored: "unsubscribe confirmation" } };
    let notification: SesNotification;
    try {
      notification = ZSesNotification.parse(JSON.parse(message.Message));
    } catch {
      return { status: 200, body: { ignored: "not an SES notification" } };
    }
    return { status: 200, body: await applyNotification(database, channel.id, notification) };
  } catch (err) {
    // Not taken after all: SNS tries again later, and that try is not a replay.
    await forget(database, message.MessageId);
    if (message.Type === "SubscriptionConfirmation") {
      log().warn({ channelId, err: (err as Error).message }, "SNS subscription confirmation failed");
      return { status: 502, body: { error: `The subscription could not be confirmed: ${(err as Error).message}.` } };
    }
    throw err;
  }
}
