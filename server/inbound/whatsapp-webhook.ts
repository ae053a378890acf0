import { z } from "zod";
import { channelConfig } from "../providers/load-channel.ts";
import { CHANNEL_SELECT } from "../channels/channel-schemas.ts";
import { upsertContact } from "../contacts/upsert-contact.ts";
import type { Database } from "../db/client.ts";
import { hmacSha256Hex, safeEqual } from "../lib/crypto.ts";
import { log } from "../lib/log.ts";
import { applyReport } from "../messaging/apply-report.ts";
import type { ChannelConfig } from "../providers/provider.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { recordInbound, type InboundItem } from "../messaging/record-inbound.ts";
import { applyTemplateStatus } from "../whatsapp/sync-templates.ts";

// The Cloud API's webhook (operations.md "Provider endpoints"): status reports and inbound
// messages, POSTed to /api/providers/whatsapp and signed with the app secret. The route is a
// thin edge; everything it decides is here.

/** Inbound texts that opt the sender out of WhatsApp messages (compared trimmed, any case). */
export const STOP_WORDS = ["STOP", "PARAR", "SAIR", "CANCELAR", "UNSUBSCRIBE"] as const;

export function isStopWord(text: string): boolean {
  return (STOP_WORDS as readonly string[]).includes(text.trim().toUpperCase());
}

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`, compared in constant time. */
export function verifySignature(raw: string | Buffer, header: string | null | undefined, appSecret: string): boolean {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? "")?.[1];
  if (!given || !appSecret) return false;
  return safeEqual(given.toLowerCase(), hmacSha256Hex(appSecret, raw));
}

// Unknown fields are tolerated everywhere; an item of a kind we do not handle is skipped, not
// refused, so one odd item does not lose the others.
const ZWebhook = z.looseObject({
  object: z.string().optional(),
  entry: z.array(
    z.looseObject({
      id: z.coerce.string().optional(),
      changes: z
        .array(
          z.looseObject({
            field: z.string().optional(),
            value: z
              .looseObject({
                metadata: z.looseObject({ phone_number_id: z.coerce.string() }).optional(),
                statuses: z.array(z.unknown()).optional(),
                messages: z.array(z.unknown()).optional(),
                contacts: z.array(z.unknown()).optional(),
              })
              .optional(),
          }),
        )
        .default([]),
    }),
  ),
});

const ZStatus = z.looseObject({
  id: z.string().min(1),
  status: z.enum(["sent", "delivered", "read", "failed"]),
  timestamp: z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(Number),
  recipient_id: z.string().optional(),
  /** Our message id, sent with the message and returned by Meta on each of its status reports. */
  biz_opaque_callback_data: z.string().optional(),
  errors: z
    .array(
      z.looseObject({
        code: z.number().optional(),
        title: z.string().optional(),
        message: z.string().optional(),
        error_data: z.looseObject({ details: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});

const ZReply = z.looseObject({ id: z.string().optional(), title: z.string().optional() });

const ZInbound = z.looseObject({
  from: z.string().regex(/^\+?\d{6,15}$/),
  id: z.string().min(1).max(512),
  timestamp: z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(Number),
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  interactive: z.looseObject({ type: z.string().optional(), button_reply: ZReply.optional(), list_reply: ZReply.optional() }).optional(),
  button: z.looseObject({ text: z.string().optional(), payload: z.string().optional() }).optional(),
});

const INBOUND_MEDIA = ["image", "video", "audio", "document", "sticker"] as const;

const ZProfile = z.looseObject({ wa_id: z.string().optional(), profile: z.looseObject({ name: z.string().optional() }).optional() });

const ZTemplateStatus = z.looseObject({
  event: z.string().min(1),
  message_template_id: z.coerce.string().optional(),
  message_template_name: z.string().min(1),
  message_template_language: z.string().min(1),
});

/** One item of `messages[]` as an inbound message (D44): text, media, or an interactive reply's title. */
function inboundItem(item: unknown, profiles: unknown[]): InboundItem | null {
  const parsed = ZInbound.safeParse(item);
  if (!parsed.success) return null;
  const m = parsed.data;
  const raw = item as Record<string, unknown>;
  const media = INBOUND_MEDIA.find((t) => t === m.type);
  const caption = media ? (raw[media] as { caption?: unknown } | undefined)?.caption : undefined;
  const text =
    m.type === "text"
      ? (m.text?.body ?? null)
      : m.type === "interactive"
        ? (m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title ?? null)
        : m.type === "button"
          ? (m.button?.text ?? null)
          : typeof caption === "string"
            ? caption
            : null;
  const digits = m.from.replace(/^\+/, "");
  const profile = profiles.map((p) => ZProfile.safeParse(p)).find((p) => p.success && p.data.wa_id === digits);
  return {
    from: `+${digits}`,
    wamid: m.id,
    at: new Date(m.timestamp * 1000),
    text,
    mediaType: media ?? null,
    profileName: (profile?.success && profile.data.profile?.name?.trim().slice(0, 200)) || null,
    raw,
  };
}

export type StatusItem = z.infer<typeof ZStatus> & { raw: Record<string, unknown> };

export type WebhookChange = {
  phoneNumberId: string;
  statuses: StatusItem[];
  /** E.164 phones of senders whose text was a stop word. */
  stopFrom: string[];
  /** Inbound messages (D44). */
  inbound: InboundItem[];
};

/** Meta's `message_template_status_update` (D41), keyed by the business account id. */
export type TemplateStatusChange = { wabaId: string; name: string; language: string; event: string; externalId?: string };

export type ParsedWebhook = { changes: WebhookChange[]; templates: TemplateStatusChange[] };

/** The changes of a webhook body that we act on; null when it is not the Cloud API's JSON. */
export function parseWebhook(raw: string): WebhookChange[] | null {
  return parseWebhookBody(raw)?.changes ?? null;
}

/** Every change of a webhook body: message changes by phone number id, template status changes by business account. */
export function parseWebhookBody(raw: string): ParsedWebhook | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = ZWebhook.safeParse(json);
  if (!parsed.success) return null;
  const changes: WebhookChange[] = [];
  const templates: TemplateStatusChange[] = [];
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      if (change.field === "message_template_status_update") {
        const update = ZTemplateStatus.safeParse(change.value);
        if (update.success && entry.id) {
          templates.push({
            wabaId: entry.id,
            name: update.data.message_template_name,
            language: update.data.message_template_language,
            event: update.data.event,
            ...(update.data.message_template_id ? { externalId: update.data.message_template_id } : {}),
          });
        }
        continue;
      }
      const phoneNumberId = change.value?.metadata?.phone_number_id;
      if (!phoneNumberId) continue;
      const statuses: StatusItem[] = [];
      for (const item of change.value?.statuses ?? []) {
        const status = ZStatus.safeParse(item);
        if (status.success) statuses.push({ ...status.data, raw: item as Record<string, unknown> });
      }
      const stopFrom: string[] = [];
      const inbound: InboundItem[] = [];
      for (const item of change.value?.messages ?? []) {
        const message = inboundItem(item, change.value?.contacts ?? []);
        if (!message) continue;
        inbound.push(message);
        if ((message.raw.type === "text" || message.raw.type === "button") && message.text !== null && isStopWord(message.text)) {
          stopFrom.push(message.from);
        }
      }
      changes.push({ phoneNumberId, statuses, stopFrom, inbound });
    }
  }
  return { changes, templates };
}

/** The report of one status item, for applyReport. */
export function statusReport(item: StatusItem) {
  const e = item.errors?.[0];
  const error = e
    ? `${e.title ?? e.message ?? "WhatsApp error"}${e.code !== undefined ? ` (code ${e.code})` : ""}${e.error_data?.details ? `: ${e.error_data.details}` : ""}`
    : undefined;
  return {
    status: item.status,
    // The wamid: a message whose send got no answer learns it from its first report (D47).
    providerMessageId: item.id,
    ...(e?.code !== undefined ? { errorCode: String(e.code) } : {}),
    at: new Date(item.timestamp * 1000),
    ...(error ? { error } : item.status === "failed" ? { error: "WhatsApp reported the message as failed." } : {}),
    kind: "provider_report" as const,
    detail: item.raw,
  };
}

export type WebhookOutcome = {
  status: 200 | 400 | 401;
  body: Record<string, unknown>;
  /** What was done, for logs and tests (not sent to Meta). */
  summary?: { applied: number; ignored: number; unmatched: number; optedOut: number; received: number; templates: number };
};

const unauthorized: WebhookOutcome = { status: 401, body: { error: "Invalid or missing X-Hub-Signature-256." } };

/**
 * Handles one webhook POST. Every phone number id in it must belong to a channel whose app
 * secret verifies the signature, or nothing is done (401). A number connected in several
 * places (several workspaces, or a channel connected again) is matched by the secret that
 * verifies; disconnected channels still take status reports for the messages they sent.
 */
export async function handleWhatsAppWebhook(database: Database, raw: Buffer | string, signature: string | null): Promise<WebhookOutcome> {
  if (!/^sha256=[0-9a-f]{64}$/i.test(signature?.trim() ?? "")) return unauthorized;
  const parsedBody = parseWebhookBody(raw.toString());
  if (!parsedBody) return { status: 400, body: { error: "The body is not the WhatsApp Cloud API's webhook JSON." } };
  const { changes, templates } = parsedBody;

  // Template status changes name the business account; its channels' app secrets verify them.
  const verifiedAccounts = new Map<string, Candidate[]>();
  for (const wabaId of new Set(templates.map((t) => t.wabaId))) {
    const channels = (await accountChannels(database, wabaId)).filter((c) => verifySignature(raw, signature, c.secrets.app_secret ?? ""));
    if (channels.length === 0) return unauthorized;
    verifiedAccounts.set(wabaId, channels);
  }

  const verified = new Map<string, Candidate[]>();
  for (const phoneNumberId of new Set(changes.map((c) => c.phoneNumberId))) {
    const channels = (await candidateChannels(database, phoneNumberId)).filter((c) =>
      verifySignature(raw, signature, c.secrets.app_secret ?? ""),
    );
    if (channels.length === 0) return unauthorized;
    verified.set(phoneNumberId, channels);
  }

  const summary = { applied: 0, ignored: 0, unmatched: 0, optedOut: 0, received: 0, templates: 0 };
  for (const update of templates) {
    const ids = verifiedAccounts.get(update.wabaId)!.map((c) => c.id);
    summary.templates += await database.transaction((sql) => applyTemplateStatus(sql, ids, update));
  }
  for (const change of changes) {
    const channels = verified.get(change.phoneNumberId)!;
    for (const item of change.statuses) {
      const messageId = await findMessage(database, channels, item);
      if (!messageId) {
        summary.unmatched++;
        continue;
      }
      const changed = await database.transaction((sql) => applyReport(sql, messageId, statusReport(item)));
      if (changed) summary.applied++;
      else summary.ignored++;
    }
    const connected = channels.filter((c) => c.connected);
    const workspaces = new Set(connected.map((c) => c.workspaceId));
    // D44: each workspace the number is connected in receives the message once, on its newest channel.
    const receivers = [...workspaces].map((w) => connected.find((c) => c.workspaceId === w)!);
    for (const item of change.inbound) {
      for (const channel of receivers) {
        try {
          if ((await recordInbound(database, channel, item)) === "recorded") summary.received++;
        } catch (err) {
          log().warn({ err, workspaceId: channel.workspaceId }, "whatsapp webhook: could not record an inbound message");
        }
      }
    }
    for (const phone of change.stopFrom) {
      for (const workspaceId of workspaces) {
        try {
          await upsertContact(database, { workspaceId, mode: "live" }, { phone, opt_out_whatsapp: true });
          summary.optedOut++;
        } catch (err) {
          log().warn({ err, workspaceId }, "whatsapp webhook: could not record an opt-out");
        }
      }
    }
  }
  // Recorded events may have webhook deliveries to make.
  if (summary.applied > 0 || summary.received > 0) wakePipeline();
  return { status: 200, body: { ok: true }, summary };
}

type Candidate = ChannelConfig & { connected: boolean };

async function candidateChannels(database: Database, phoneNumberId: string): Promise<Candidate[]> {
  const rows = await database.prisma.channel.findMany({
    where: { type: "whatsapp", externalId: phoneNumberId },
    orderBy: { createdAt: "desc" },
    select: { ...CHANNEL_SELECT, workspaceId: true },
  });
  const out: Candidate[] = [];
  for (const row of rows) {
    try {
      out.push({ ...channelConfig(row), connected: row.disconnectedAt === null });
    } catch (err) {
      log().error({ err, channelId: row.id }, "whatsapp webhook: channel secrets cannot be opened (AUTH_SECRET changed?)");
    }
  }
  return out;
}

/** The WhatsApp channels of a business account (D41), connected or not. */
async function accountChannels(database: Database, wabaId: string): Promise<Candidate[]> {
  const rows = await database.prisma.channel.findMany({
    where: { type: "whatsapp", settings: { path: ["waba_id"], equals: wabaId } },
    orderBy: { createdAt: "desc" },
    select: { ...CHANNEL_SELECT, workspaceId: true },
  });
  const out: Candidate[] = [];
  for (const row of rows) {
    try {
      out.push({ ...channelConfig(row), connected: row.disconnectedAt === null });
    } catch (err) {
      log().error({ err, channelId: row.id }, "whatsapp webhook: channel secrets cannot be opened (AUTH_SECRET changed?)");
    }
  }
  return out;
}

/**
 * The message a status report is about: by its wamid, or else by our message id that Meta
 * returns as `biz_opaque_callback_data` (the send's answer, and so the wamid, may have been
 * lost, D47), among the messages of the channels whose app secret verified the report.
 */
async function findMessage(database: Database, channels: ChannelConfig[], item: StatusItem): Promise<string | null> {
  const ours = item.biz_opaque_callback_data;
  const found = await database.prisma.message.findFirst({
    where: {
      channelId: { in: channels.map((c) => c.id) },
      OR: [{ providerMessageId: item.id }, ...(ours ? [{ id: ours }] : [])],
    },
    select: { id: true },
  });
  return found?.id ?? null;
}

/**
 * Meta's subscription handshake (GET): `hub.mode=subscribe` with a `hub.verify_token` that is
 * a connected channel's verify token; the answer is `hub.challenge`. Null means 403.
 */
export async function verifyHandshake(database: Database, params: URLSearchParams): Promise<string | null> {
  const token = params.get("hub.verify_token");
  const challenge = params.get("hub.challenge");
  if (params.get("hub.mode") !== "subscribe" || !token || challenge === null || challenge.length > 1024) return null;
  const rows = await database.prisma.channel.findMany({
    where: { type: "whatsapp", disconnectedAt: null },
    select: { ...CHANNEL_SELECT, workspaceId: true },
  });
  let matched = false;
  for (const row of rows) {
    try {
      // Every channel is compared (no early exit), in constant time each.
      if (safeEqual(channelConfig(row).secrets.verify_token ?? "", token)) matched = true;
    } catch {
      // secrets that cannot be opened match nothing
    }
  }
  return matched ? challenge : null;
}
