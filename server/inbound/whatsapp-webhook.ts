import { z } from "zod";
import { channelConfig } from "../providers/load-channel.ts";
import { CHANNEL_SELECT } from "../channels/channel-schemas.ts";
import { updateContact, upsertContact } from "../contacts/upsert-contact.ts";
import { findContactBy } from "../contacts/get-contact.ts";
import { isWhatsAppUserId } from "../lib/whatsapp-user-id.ts";
import { metaErrorCodeText } from "../providers/meta-error-codes.ts";
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
  /** D88: always sent since 2026, with or without `recipient_id` (the phone). */
  recipient_user_id: z.string().optional(),
  /** Our message id, sent with the message and returned by Meta on each of its status reports. */
  biz_opaque_callback_data: z.string().optional(),
  /** D89: `{ billable, pricing_model, type, category }`; the message keeps `category` and `type` as Meta names them. */
  pricing: z
    .looseObject({ category: z.string().min(1).max(100), type: z.string().min(1).max(100) })
    .optional()
    .catch(undefined),
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

// D88: a sender is known by its phone (`from`), withheld unless the business and the user were
// in touch lately, and by its user id (`from_user_id`); at least one of them.
const ZInbound = z
  .looseObject({
    from: z
      .string()
      .regex(/^\+?\d{6,15}$/)
      .optional(),
    from_user_id: z.string().refine(isWhatsAppUserId).optional(),
    id: z.string().min(1).max(512),
    timestamp: z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(Number),
    type: z.string(),
    text: z.looseObject({ body: z.string() }).optional(),
    interactive: z.looseObject({ type: z.string().optional(), button_reply: ZReply.optional(), list_reply: ZReply.optional() }).optional(),
    button: z.looseObject({ text: z.string().optional(), payload: z.string().optional() }).optional(),
    system: z.looseObject({ type: z.string().optional(), user_id: z.string().optional() }).optional(),
  })
  .refine((m) => m.from !== undefined || m.from_user_id !== undefined);

const INBOUND_MEDIA = ["image", "video", "audio", "document", "sticker"] as const;

const ZProfile = z.looseObject({
  wa_id: z.string().optional(),
  user_id: z.string().optional(),
  profile: z.looseObject({ name: z.string().optional(), username: z.string().optional() }).optional(),
});

/** D88: the parent user id, under any of the spellings Meta's pages use; kept, never matched on. */
const PARENT_KEYS = ["parent_user_id", "parent_recipient_user_id", "recipient_parent_user_id", "from_parent_user_id"] as const;

export function parentUserId(...items: unknown[]): string | null {
  for (const item of items) {
    if (!item || typeof item !== "object") continue;
    for (const key of PARENT_KEYS) {
      const value = (item as Record<string, unknown>)[key];
      if (typeof value === "string" && isWhatsAppUserId(value)) return value;
    }
  }
  return null;
}

const ZTemplateStatus = z.looseObject({
  event: z.string().min(1),
  message_template_id: z.coerce.string().optional(),
  message_template_name: z.string().min(1),
  message_template_language: z.string().min(1),
});

/** A `system` message of type `user_changed_user_id` (D88): the sender's user id changed. */
export type UserIdChange = { from: string | null; userId: string | null; newUserId: string };

/** Meta's `phone_number_quality_update` (D90): `event` THROUGHPUT_UPGRADE lifts the number to 1,000 messages/s. */
const ZQualityUpdate = z.looseObject({
  event: z.string().min(1),
  display_phone_number: z.coerce.string().optional(),
  metadata: z.looseObject({ phone_number_id: z.coerce.string() }).optional(),
});

/** A number's throughput after `THROUGHPUT_UPGRADE` (D90); 80 before it. */
export const UPGRADED_RATE_PER_SECOND = 1000;

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
  const digits = m.from?.replace(/^\+/, "");
  // D88: the sender's `contacts[]` entry, by user id first, then by phone.
  const entries = profiles.map((p) => ZProfile.safeParse(p)).flatMap((p) => (p.success ? [p.data] : []));
  const profile =
    (m.from_user_id ? entries.find((p) => p.user_id === m.from_user_id) : undefined) ??
    (digits ? entries.find((p) => p.wa_id === digits) : undefined);
  const username = profile?.profile?.username?.trim().slice(0, 64) || null;
  return {
    from: digits ? `+${digits}` : null,
    userId: m.from_user_id ?? (profile?.user_id && isWhatsAppUserId(profile.user_id) ? profile.user_id : null),
    username,
    parentUserId: parentUserId(raw, profile),
    wamid: m.id,
    at: new Date(m.timestamp * 1000),
    text,
    mediaType: media ?? null,
    profileName: profile?.profile?.name?.trim().slice(0, 200) || null,
    raw,
  };
}

export type StatusItem = z.infer<typeof ZStatus> & { raw: Record<string, unknown> };

export type WebhookChange = {
  phoneNumberId: string;
  statuses: StatusItem[];
  /** Senders whose text was a stop word: their E.164 phone and (D88) user id, as known. */
  stopFrom: { phone: string | null; userId: string | null }[];
  /** Inbound messages (D44). */
  inbound: InboundItem[];
  /** D88: `user_changed_user_id` system messages. */
  userIdChanges: UserIdChange[];
};

/** Meta's `message_template_status_update` (D41), keyed by the business account id. */
export type TemplateStatusChange = { wabaId: string; name: string; language: string; event: string; externalId?: string };

/** A `phone_number_quality_update` (D90), keyed by the business account id (and the number, when named). */
export type QualityUpdate = { wabaId: string; phoneNumberId?: string; event: string };

export type ParsedWebhook = { changes: WebhookChange[]; templates: TemplateStatusChange[]; quality: QualityUpdate[] };

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
  const quality: QualityUpdate[] = [];
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      if (change.field === "phone_number_quality_update") {
        const update = ZQualityUpdate.safeParse(change.value);
        if (update.success && entry.id) {
          const phoneNumberId = update.data.metadata?.phone_number_id;
          quality.push({ wabaId: entry.id, event: update.data.event, ...(phoneNumberId ? { phoneNumberId } : {}) });
        }
        continue;
      }
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
      const stopFrom: WebhookChange["stopFrom"] = [];
      const inbound: InboundItem[] = [];
      const userIdChanges: UserIdChange[] = [];
      for (const item of change.value?.messages ?? []) {
        const message = inboundItem(item, change.value?.contacts ?? []);
        if (!message) continue;
        const system = (item as { system?: { type?: unknown; user_id?: unknown } }).system;
        if (message.raw.type === "system") {
          if (system?.type === "user_changed_user_id" && typeof system.user_id === "string" && isWhatsAppUserId(system.user_id)) {
            userIdChanges.push({ from: message.from, userId: message.userId, newUserId: system.user_id });
          }
          continue;
        }
        inbound.push(message);
        if ((message.raw.type === "text" || message.raw.type === "button") && message.text !== null && isStopWord(message.text)) {
          stopFrom.push({ phone: message.from, userId: message.userId });
        }
      }
      changes.push({ phoneNumberId, statuses, stopFrom, inbound, userIdChanges });
    }
  }
  return { changes, templates, quality };
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
    ...(e?.code !== undefined ? { errorCode: metaErrorCodeText(e.code) } : {}),
    at: new Date(item.timestamp * 1000),
    ...(error ? { error } : item.status === "failed" ? { error: "WhatsApp reported the message as failed." } : {}),
    kind: "provider_report" as const,
    detail: item.raw,
    ...(item.pricing ? { pricing: { category: item.pricing.category, type: item.pricing.type } } : {}),
  };
}

export type WebhookOutcome = {
  status: 200 | 400 | 401;
  body: Record<string, unknown>;
  /** What was done, for logs and tests (not sent to Meta). */
  summary?: {
    applied: number;
    ignored: number;
    unmatched: number;
    optedOut: number;
    received: number;
    templates: number;
    moved: number;
  };
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
  const { changes, templates, quality } = parsedBody;

  // Template status and quality changes name the business account; its channels' app secrets verify them.
  const verifiedAccounts = new Map<string, Candidate[]>();
  for (const wabaId of new Set([...templates, ...quality].map((t) => t.wabaId))) {
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

  const summary = { applied: 0, ignored: 0, unmatched: 0, optedOut: 0, received: 0, templates: 0, moved: 0 };
  for (const update of templates) {
    const ids = verifiedAccounts.get(update.wabaId)!.map((c) => c.id);
    summary.templates += await database.transaction((sql) => applyTemplateStatus(sql, ids, update));
  }
  for (const update of quality) {
    if (update.event !== "THROUGHPUT_UPGRADE") continue;
    // D90: the number now sends up to 1,000 messages/s; the pacing reads the rate at every reservation.
    const upgraded = verifiedAccounts
      .get(update.wabaId)!
      .filter((c) => c.connected && (!update.phoneNumberId || c.externalId === update.phoneNumberId));
    for (const c of upgraded) {
      await database.query(`UPDATE channels SET rate_per_second = $3 WHERE workspace_id = $1 AND id = $2`, [
        c.workspaceId,
        c.id,
        UPGRADED_RATE_PER_SECOND,
      ]);
    }
  }
  for (const change of changes) {
    const channels = verified.get(change.phoneNumberId)!;
    for (const item of change.statuses) {
      const message = await findMessage(database, channels, item);
      if (!message) {
        summary.unmatched++;
        continue;
      }
      const changed = await database.transaction((sql) => applyReport(sql, message.id, statusReport(item), message.workspaceId));
      if (changed) summary.applied++;
      else summary.ignored++;
      if (item.recipient_user_id && isWhatsAppUserId(item.recipient_user_id) && message.contactId) {
        await learnUserId(database, message.workspaceId, message.contactId, item.recipient_user_id).catch((err) =>
          log().warn({ err, workspaceId: message.workspaceId }, "whatsapp webhook: could not keep a recipient's user id"),
        );
      }
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
    for (const update of change.userIdChanges) {
      for (const workspaceId of workspaces) {
        try {
          if (await moveUserId(database, workspaceId, update)) summary.moved++;
        } catch (err) {
          log().warn({ err, workspaceId }, "whatsapp webhook: could not move a contact to its new user id");
        }
      }
    }
    for (const { phone, userId } of change.stopFrom) {
      for (const workspaceId of workspaces) {
        try {
          const address = { ...(phone ? { phone } : {}), ...(userId ? { whatsapp_user_id: userId } : {}) };
          await upsertContact(database, { workspaceId, mode: "live" }, { ...address, opt_out_whatsapp: true });
          summary.optedOut++;
        } catch (err) {
          log().warn({ err, workspaceId }, "whatsapp webhook: could not record an opt-out");
        }
      }
    }
  }
  // Recorded events may have webhook deliveries to make.
  if (summary.applied > 0 || summary.received > 0 || summary.moved > 0) wakePipeline();
  return { status: 200, body: { ok: true }, summary };
}

/**
 * D88: `user_changed_user_id` moves the contact known by the old user id (else by the phone)
 * to the new one, through the contact update (event `contato.atualizado`). False when no
 * contact matched or it already has the new id.
 */
async function moveUserId(database: Database, workspaceId: string, change: UserIdChange): Promise<boolean> {
  const contact =
    (change.userId ? await findContactBy(database.query, workspaceId, { whatsapp_user_id: change.userId }) : null) ??
    (change.from ? await findContactBy(database.query, workspaceId, { phone: change.from }) : null);
  if (!contact || contact.whatsapp_user_id === change.newUserId) return false;
  await updateContact(database, { workspaceId, mode: "live" }, contact.id, { whatsapp_user_id: change.newUserId });
  return true;
}

/**
 * D88: a status report names its recipient by user id (with or without the phone); the
 * message's contact keeps that id when it has none and no other contact holds it.
 */
async function learnUserId(database: Database, workspaceId: string, contactId: string, userId: string): Promise<void> {
  const contact = await findContactBy(database.query, workspaceId, { id: contactId });
  if (!contact || contact.whatsapp_user_id) return;
  if (await findContactBy(database.query, workspaceId, { whatsapp_user_id: userId })) return;
  await updateContact(database, { workspaceId, mode: "live" }, contactId, { whatsapp_user_id: userId });
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
async function findMessage(
  database: Database,
  channels: ChannelConfig[],
  item: StatusItem,
): Promise<{ id: string; workspaceId: string; contactId: string | null } | null> {
  const ours = item.biz_opaque_callback_data;
  const found = await database.prisma.message.findFirst({
    where: {
      channelId: { in: channels.map((c) => c.id) },
      OR: [{ providerMessageId: item.id }, ...(ours ? [{ id: ours }] : [])],
    },
    select: { id: true, workspaceId: true, contactId: true },
  });
  return found ?? null;
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
