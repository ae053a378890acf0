import type { Database } from "../db/client.ts";
import { setContactFlag } from "../contacts/contact-flags.ts";
import { env } from "../lib/env.ts";
import { log } from "../lib/log.ts";
import { applyReport, type Report } from "../messaging/apply-report.ts";
import { recordInbound } from "../messaging/record-inbound.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { loadChannel } from "../providers/load-channel.ts";
import type { ChannelConfig } from "../providers/provider.ts";
import { channelOf } from "../channels/registry.ts";
import { smsKeyword } from "../channels/sms/opt-out.ts";
import { verifyTwilioSignature } from "../channels/sms/twilio-signature.ts";

// Twilio's callbacks of one sms channel (D95, D96), posted form-encoded to
// /api/providers/sms/twilio/{channel_id}: a message's status callbacks and the inbound
// messages of the channel's number, each signed with `X-Twilio-Signature` under the channel's
// auth token. The route under app/api/providers/sms/ is a thin edge over this function.

export type SmsCallbackOutcome = { status: 200 | 403 | 404; body: Record<string, unknown> };

/** D95: statuses that move the message (D8); `undelivered` and `failed` fail it; the rest change nothing. */
const MOVES: Record<string, Report["status"]> = {
  sent: "sent",
  delivered: "delivered",
  read: "read",
  undelivered: "failed",
  failed: "failed",
};

/**
 * One callback. Twilio signs the URL it posted to: the service's public address (APP_URL)
 * followed by the request's path and query (`path`), or the address the request named in its
 * `Host` header (http, or https before a proxy that ends TLS) when APP_URL is not the one
 * Twilio was given.
 */
export async function handleTwilioCallback(
  database: Database,
  channelId: string,
  request: { path: string; host: string | null },
  raw: string,
  signature: string | null,
): Promise<SmsCallbackOutcome> {
  // Disconnected channels still take the reports of the messages they sent.
  const channel = await loadChannel(database, channelId, { includeDisconnected: true }).catch(() => null);
  if (!channel || channel.type !== "sms") return { status: 404, body: { error: "No SMS channel has this id." } };
  const params = new URLSearchParams(raw);
  const token = channel.secrets.auth_token ?? "";
  const origins = [env().appUrl, ...(request.host ? [`https://${request.host}`, `http://${request.host}`] : [])];
  const urls = new Set(origins.map((origin) => `${origin}${request.path}`));
  if (![...urls].some((candidate) => verifyTwilioSignature(token, signature ?? undefined, candidate, params))) {
    log().info({ channelId }, "twilio callback refused: missing or wrong X-Twilio-Signature");
    return { status: 403, body: { error: "Invalid or missing X-Twilio-Signature." } };
  }
  const status = params.get("MessageStatus");
  if (status !== null && status !== "received") {
    return statusCallback(database, channel, status, params, new URLSearchParams(request.path.split("?")[1] ?? "").get("message_id"));
  }
  if (params.has("Body") && params.get("From")) {
    // As a disconnected WhatsApp number: its sends' reports still settle them, but what people
    // text it is not recorded (nor a STOP/START word applied) in the workspace that left it.
    if (!(await loadChannel(database, channelId)))
      return { status: 200, body: { received: false, ignored: "the channel is disconnected" } };
    return inboundMessage(database, channel, params);
  }
  return { status: 200, body: { ignored: "neither a status callback nor an inbound message" } };
}

/**
 * A status callback: its message is found among the channel's by Twilio's sid, or by our id
 * that the send's StatusCallback URL carries (`ours`), the sid's record may not be written yet.
 */
async function statusCallback(
  database: Database,
  channel: Pick<ChannelConfig, "id" | "workspaceId" | "type">,
  status: string,
  params: URLSearchParams,
  ours: string | null,
): Promise<SmsCallbackOutcome> {
  const moved = MOVES[status];
  if (!moved) return { status: 200, body: { ignored: `status ${status}` } };
  const sid = params.get("MessageSid") ?? params.get("SmsSid") ?? "";
  const message =
    sid || ours
      ? await database.prisma.message.findFirst({
          where: {
            workspaceId: channel.workspaceId,
            channelId: channel.id,
            OR: [...(sid ? [{ providerMessageId: sid }] : []), ...(ours ? [{ id: ours }] : [])],
          },
          select: { id: true, workspaceId: true, contactId: true, mode: true },
        })
      : null;
  if (!message) return { status: 200, body: { ignored: "no message of this channel has this sid" } };
  const code = params.get("ErrorCode");
  const errorCode = moved === "failed" && code ? `sms_${code}` : null;
  const report: Report = {
    status: moved,
    kind: "provider_report",
    providerMessageId: sid,
    detail: Object.fromEntries(params),
    ...(moved === "failed"
      ? {
          error: `Twilio reported the message as ${status}${code ? ` (error ${code})` : ""}.`,
          ...(errorCode ? { errorCode } : {}),
        }
      : {}),
  };
  const applied = await database.transaction(async (sql) => {
    const changed = await applyReport(sql, message.id, report, message.workspaceId);
    // D96: what the channel's module says the refusal changes (Twilio's 21610, the recipient
    // texted STOP to the sender: the contact opted out of sms), as when a send is refused.
    const effect = errorCode ? channelOf(channel.type).refusal?.(errorCode) : undefined;
    if (effect && "flag" in effect) {
      await setContactFlag(sql, { workspaceId: message.workspaceId, id: message.contactId }, effect.flag, message.mode);
    }
    return changed;
  });
  if (applied) wakePipeline();
  return { status: 200, body: { message_id: message.id, applied } };
}

async function inboundMessage(
  database: Database,
  channel: { id: string; workspaceId: string },
  params: URLSearchParams,
): Promise<SmsCallbackOutcome> {
  const body = params.get("Body") ?? "";
  const keyword = smsKeyword(body);
  const outcome = await recordInbound(
    database,
    { id: channel.id, workspaceId: channel.workspaceId, type: "sms" },
    {
      from: params.get("From"),
      userId: null,
      username: null,
      parentUserId: null,
      wamid: params.get("MessageSid") ?? params.get("SmsSid") ?? "",
      at: new Date(),
      text: body,
      mediaType: null,
      profileName: null,
      raw: Object.fromEntries(params),
    },
    // D96: a body that is exactly an opt-out word sets `opt_out_sms`; an opt-in word clears it.
    keyword
      ? (sql, contact) =>
          setContactFlag(sql, { workspaceId: channel.workspaceId, id: contact.id }, "opt_out_sms", "live", keyword === "opt_out").then(
            () => {},
          )
      : undefined,
  );
  if (outcome === "recorded") wakePipeline();
  return { status: 200, body: { received: outcome === "recorded", ...(keyword ? { keyword } : {}) } };
}
