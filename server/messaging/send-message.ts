import type { Contact } from "../contacts/contact-schemas.ts";
import { upsertContact } from "../contacts/upsert-contact.ts";
import type { Database, Handle } from "../db/client.ts";
import type { IdempotentEffect } from "../idempotency/idempotency.ts";
import type { Mode } from "../keys/scopes.ts";
import { normalizeEmail } from "../lib/email.ts";
import { conflict, invalid, notFound } from "../lib/errors.ts";
import { batchedRows } from "../lib/batched-rows.ts";
import { versionedCache } from "../lib/versioned-cache.ts";
import { newId } from "../lib/ids.ts";
import { messageView, type Message, type SendMessageRequest } from "./message-schemas.ts";
import { placeholderValues, render, type RenderOptions } from "./render.ts";
import { resolveRecipient } from "./resolve-recipient.ts";
import { WINDOW_CLOSED_RECIPIENT } from "./test-mode.ts";
import { acceptMessage, type Accepted, type NewMessage } from "./insert-messages.ts";
import { currentCause } from "../observability/request-context.ts";
import type { Content } from "../providers/provider.ts";
import { checkTemplateSend, templateContent, lookUpTemplate, type StoredTemplate } from "../whatsapp/check-template-send.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import type { Columns } from "../db/rows.ts";

/** Why a contact cannot be sent a message on a channel; `reason` ends "The recipient …" or "The contact …". */
type Refusal = { code: "recipient_missing_address" | "recipient_opted_out"; reason: string };

/**
 * The address a message on `channel` goes to (the contact's phone or e-mail), or why it cannot
 * go: no address for the channel, or the contact opted out of it (D38). One rule for
 * POST /messages, which answers the refusal as an error, and a flow's send step, which skips.
 */
export function deliveryAddress(
  contact: Pick<Contact, "phone" | "email" | "opt_out_whatsapp" | "opt_out_email">,
  channel: "whatsapp" | "email",
): { address: string; refused?: undefined } | { address?: undefined; refused: Refusal } {
  const address = channel === "whatsapp" ? contact.phone : contact.email;
  if (!address) {
    return {
      refused: { code: "recipient_missing_address", reason: `has no ${channel === "whatsapp" ? "phone number" : "e-mail address"}` },
    };
  }
  if (channel === "whatsapp" ? contact.opt_out_whatsapp : contact.opt_out_email) {
    return { refused: { code: "recipient_opted_out", reason: `opted out of ${channel} messages` } };
  }
  return { address };
}

/**
 * POST /messages (spec "Send message", D15, D16, D17, D25, D35, D76): `prepareMessage`'s
 * checks, then the write, which counts the quota (live keys). The message, its quota count and
 * the stored idempotent response commit together (D46), in a statement shared with this
 * process's concurrent sends.
 */
export async function sendMessage(
  database: Database,
  sender: Sender,
  input: SendMessageRequest,
  opts: SendOptions & { idempotency?: IdempotentEffect } = {},
): Promise<Message> {
  const { accepted, view } = await prepareMessage(database, sender, input, opts);
  const responseStored = await acceptMessage(database, {
    ...accepted,
    ...(opts.idempotency ? { response: { effect: opts.idempotency, body: view } } : {}),
  });
  if (responseStored) opts.idempotency!.stored();
  return view;
}

type Sender = Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry" | "templatesVersion">;
type SendOptions = {
  source?: "api" | "flow";
  apiKeyId?: string | null;
  /** Creates a new recipient's contact (D15); a batch shares one creation per address among its items. */
  createContact?: (draft: RecipientDraft) => Promise<{ id: string }>;
};
type RecipientDraft = { phone?: string; email?: string; name?: string };

/**
 * Every check of a send before anything is written, in D16's order: the channel id, the
 * recipient's address, opt-out, a connected channel (live keys), placeholders; the quota is
 * counted by the write (`acceptMessage`). Creates the recipient's contact when it is new (D15).
 * The message ready to write, and how it will be answered.
 */
export async function prepareMessage(
  database: Database,
  sender: Sender,
  input: SendMessageRequest,
  opts: SendOptions = {},
): Promise<{ accepted: Accepted; view: Message }> {
  const channelId = await pickChannel(database.query, sender, input);
  // A template's read needs only the channel, so it runs beside the recipient's; its errors
  // still come in D16's order, when the content is checked. (With no channel given, the read
  // finds the template on the first connected channel: the one a live send would use.)
  const template = input.whatsapp?.template
    ? lookUpTemplate(database, { id: channelId, workspaceId: sender.workspaceId }, input.whatsapp.template, sender.templatesVersion)
    : undefined;
  template?.catch(() => {}); // observed where the content is checked, or not needed
  const recipient = await resolveRecipient(database, sender, input.to);
  const contact = recipient.contact ?? draftContact(recipient.draft);
  const { address, refused } = deliveryAddress(contact, input.channel);
  if (refused?.code === "recipient_missing_address") {
    throw invalid("recipient_missing_address", `The recipient ${refused.reason}.`, input.channel === "whatsapp" ? "to.phone" : "to.email");
  }
  if (refused) throw conflict("recipient_opted_out", `The recipient ${refused.reason}.`, "to");
  const live = sender.mode === "live";
  const liveChannel = live
    ? (channelId ?? (await connectedChannel({ database, version: sender.templatesVersion }, sender.workspaceId, input.channel)))
    : channelId;
  const content =
    input.channel === "whatsapp"
      ? await whatsappContent(database.query, sender, input, contact, liveChannel, { missing: "refuse", template })
      : renderContent(input, contact, { missing: "refuse" });

  const create = opts.createContact ?? ((draft: RecipientDraft) => upsertContact(database, sender, draft));
  const contactId = recipient.exists ? contact.id : (await create(recipient.draft)).id;
  const now = new Date();
  // D76: a `send_at` a few seconds past (clock skew) means now.
  const sendAt = input.send_at !== undefined && Date.parse(input.send_at) > now.getTime() ? new Date(input.send_at) : null;
  const message: NewMessage = {
    sender,
    channel: input.channel,
    channelId: liveChannel,
    contactId,
    address,
    content,
    source: opts.source ?? "api",
    apiKeyId: opts.apiKeyId ?? null,
    metadata: input.metadata ?? {},
    sendAt,
  };
  const id = newId("message");
  const view = messageView({
    id,
    status: "queued",
    channel: input.channel,
    to: address,
    contactId,
    metadata: message.metadata,
    providerMessageId: null,
    error: null,
    scheduledAt: sendAt,
    sentAt: null,
    deliveredAt: null,
    readAt: null,
    createdAt: now,
  });
  return { accepted: { id, message, at: now, cause: currentCause() }, view };
}

/**
 * D16: an explicit `channel_id` must be a connected channel of the message's type. Reads
 * through `sql`, so a flow run can ask inside its transaction (PGlite has one connection).
 */
export async function pickChannel(
  sql: Handle,
  sender: Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry" | "templatesVersion">,
  input: Pick<SendMessageRequest, "channel" | "channel_id">,
): Promise<string | null> {
  if (input.channel_id === undefined) return null;
  const [channel] = await sql<Columns<"channels", "id" | "type">>(
    `SELECT id, type::text AS type FROM channels WHERE id = $1 AND workspace_id = $2 AND disconnected_at IS NULL`,
    [input.channel_id, sender.workspaceId],
  );
  if (!channel || channel.type !== input.channel) throw notFound(`${input.channel} channel`, "channel_id");
  return channel.id;
}

// The oldest connected channel of each key (`<type> <workspace id>`: the type has no space,
// the rest is the id whatever it holds): one statement for the live sends of a tick (every
// live send without `channel_id` asks), or for a flow run's one.
const CONNECTED_CHANNELS = `
  SELECT DISTINCT ON (k.key) k.key AS id, c.id AS channel
  FROM unnest($1::text[]) AS k(key)
  JOIN channels c ON c.type = split_part(k.key, ' ', 1)::"ChannelType" AND c.workspace_id = substr(k.key, strpos(k.key, ' ') + 1)
   AND c.disconnected_at IS NULL
  ORDER BY k.key, c.created_at, c.id`;

const connectedChannelBatched = batchedRows<{ id: string; channel: string }>(CONNECTED_CHANNELS);

/**
 * The oldest connected channel of the type; a live send without one is a 409 (D16). Read
 * with the process's concurrent sends (`database`), or through a flow run's transaction (`sql`).
 * With `version`, the workspace's templates_version that the request's key check read: an
 * answer read at that version is given again from memory (`versionedCache`), since connecting
 * or disconnecting a channel changes the version.
 */
export async function connectedChannel(
  via: { database: Database; version?: string } | { sql: Handle },
  workspaceId: string,
  type: "whatsapp" | "email",
): Promise<string> {
  const key = `${type} ${workspaceId}`;
  const channel =
    "sql" in via
      ? ((await via.sql<{ id: string; channel: string }>(CONNECTED_CHANNELS, [[key]]))[0]?.channel ?? null)
      : await connectedChannels(
          via.database,
          key,
          via.version,
          async () => (await connectedChannelBatched(via.database, key))?.channel ?? null,
        );
  if (!channel) throw conflict("channel_not_connected", `No ${type} channel is connected: connect one in the dashboard first.`, "channel");
  return channel;
}

/** Workspaces' connected channels kept per process and database (about 100 bytes each). */
const connectedChannels = versionedCache<string | null>(20_000);

function draftContact(draft: { phone?: string; email?: string; name?: string }): Contact {
  return {
    id: "",
    phone: draft.phone ?? null,
    email: draft.email ?? null,
    name: draft.name ?? null,
    tags: [],
    fields: {},
    opt_out_whatsapp: false,
    opt_out_email: false,
    whatsapp_window_expires_at: null,
    created_at: "",
    updated_at: "",
  };
}

/** D43: whether the contact's 24-hour window is open now (test keys: always, but for the reserved recipient). */
export function windowOpen(mode: Mode, contact: Contact, address: string, now: Date = new Date()): boolean {
  if (mode === "test") return address !== WINDOW_CLOSED_RECIPIENT;
  return contact.whatsapp_window_expires_at !== null && new Date(contact.whatsapp_window_expires_at).getTime() > now.getTime();
}

/**
 * The content of a WhatsApp message (API sends and flow send steps): a template, checked and
 * filled (D42), or the free-form content, which needs the contact's window open (D43). With
 * `fallback` (a flow step that carries both), the free-form content goes inside the window
 * and the template outside it. Reads through `sql`, so a flow run asks inside its
 * transaction.
 */
export async function whatsappContent(
  sql: Handle,
  sender: Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry" | "templatesVersion">,
  input: SendMessageRequest,
  contact: Contact,
  channelId: string | null,
  opts: Pick<RenderOptions, "missing"> & { fallback?: boolean; now?: Date; template?: Promise<StoredTemplate> },
): Promise<Content> {
  const w = input.whatsapp ?? {};
  const freeForm = w.body !== undefined || w.media_url !== undefined;
  const address = contact.phone ?? "";
  const open = windowOpen(sender.mode, contact, address, opts.now);
  if (w.template && (!freeForm || (opts.fallback && !open))) {
    const given = w.template.parameters ?? {};
    const { template, parameters } = await checkTemplateSend(
      sql,
      { id: channelId, workspaceId: sender.workspaceId },
      w.template,
      opts.template,
    );
    const values = placeholderValues(input.variables ?? {}, { ...contact, id: contact.id || "" });
    const filled: Record<string, string> = {};
    for (const p of parameters) filled[p.name] = render(given[p.name]!, values, { ...opts, limit: RENDERED_LIMITS.parameter(p.name) });
    return templateContent(template, parameters, filled);
  }
  if (!open) {
    const expired = contact.whatsapp_window_expires_at;
    throw conflict(
      "whatsapp_window_closed",
      `${expired && sender.mode === "live" ? `The contact's 24-hour WhatsApp window closed at ${expired}` : "The contact's 24-hour WhatsApp window never opened: the contact has not written to you on WhatsApp"}. Outside the window only a template can be sent: give whatsapp.template.`,
      w.body !== undefined ? "whatsapp.body" : "whatsapp.media_url",
    );
  }
  return renderContent(input, contact, opts);
}

/** D48: the request's limits (D16) apply to the rendered text too. */
const RENDERED_LIMITS = {
  body: { param: "whatsapp.body", max: 4096, unit: "characters" },
  subject: { param: "email.subject", max: 998, unit: "characters" },
  html: { param: "email.html", max: 512 * 1024, unit: "bytes" },
  parameter: (name: string) => ({ param: `whatsapp.template.parameters.${name}`, max: 1024, unit: "characters" as const }),
} as const;

/**
 * The message as it will be sent, placeholders filled (D17), for API sends and flow send
 * steps alike; a rendered text over its limit is `400 rendered_too_long` (D48).
 */
export function renderContent(input: SendMessageRequest, contact: Contact, opts: Pick<RenderOptions, "missing">): Content {
  const values = placeholderValues(input.variables ?? {}, { ...contact, id: contact.id || "" });
  if (input.channel === "whatsapp") {
    const w = input.whatsapp ?? {};
    return {
      ...(w.body !== undefined ? { body: render(w.body, values, { ...opts, limit: RENDERED_LIMITS.body }) } : {}),
      ...(w.media_url ? { media_url: w.media_url, media_type: w.media_type } : {}),
    };
  }
  const e = input.email ?? {};
  return {
    subject: render(e.subject ?? "", values, { ...opts, limit: RENDERED_LIMITS.subject }),
    html: render(e.html ?? "", values, { ...opts, html: true, limit: RENDERED_LIMITS.html }),
    ...(e.reply_to ? { reply_to: normalizeEmail(e.reply_to, "email.reply_to") } : {}),
    ...(e.preview_text ? { preview_text: render(e.preview_text, values, opts) } : {}),
  };
}
