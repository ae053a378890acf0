import { optOuts, type Contact } from "../contacts/contact-schemas.ts";
import { upsertContact } from "../contacts/upsert-contact.ts";
import type { Database, Handle } from "../db/client.ts";
import type { IdempotentEffect } from "../idempotency/idempotency.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { channelPausedError, stopsEverySend } from "../channels/channel-pause.ts";
import { newId } from "../lib/ids.ts";
import { quotaRefusal } from "../usage/quota.ts";
import { connectedChannel } from "./connected-channel.ts";
import { messageView, type Message, type MessageDryRun, type RenderedContent, type SendMessageRequest } from "./message-schemas.ts";
import { placeholderValues, render, type RenderOptions } from "./render.ts";
import { resolveRecipient, type RecipientDraft } from "./resolve-recipient.ts";
import { deliveryAddress, whyNot } from "./why-not.ts";
import { windowClosedError, windowOpen } from "../channels/whatsapp/index.ts";
import { channelOf } from "../channels/registry.ts";
import { acceptMessage, type Accepted, type NewMessage } from "./insert-messages.ts";
import { currentCause } from "../observability/request-context.ts";
import type { Content } from "../providers/provider.ts";
import { checkTemplateSend, templateContent, lookUpTemplate, type StoredTemplate } from "../whatsapp/check-template-send.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import type { Columns } from "../db/rows.ts";

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

/**
 * POST /messages with `dry_run` (D71): every check of `sendMessage`, the daily and monthly
 * limits read instead of counted, and the message it would create with its content rendered;
 * nothing is written (no contact, message, count, event or job).
 */
export async function dryRunMessage(database: Database, sender: Sender, input: SendMessageRequest): Promise<MessageDryRun> {
  const checked = await checkMessage(database, sender, input);
  if (sender.mode === "live") {
    const limit = await quotaRefusal(database.query, sender.workspaceId, input.channel, checked.now);
    if (limit) throw limit;
  }
  const { id: _id, ...view } = messageView(viewRow(input, checked, checked.recipient.exists ? checked.contact.id : ""));
  return {
    ...view,
    dry_run: true,
    contact_id: checked.recipient.exists ? checked.contact.id : null,
    content: renderedView(checked.content),
  };
}

type Sender = Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry" | "templatesVersion">;
type SendOptions = {
  source?: "api" | "flow";
  apiKeyId?: string | null;
  /** Creates a new recipient's contact (D15); a batch shares one creation per address among its items. */
  createContact?: (draft: RecipientDraft) => Promise<{ id: string }>;
};

/**
 * Every check of a send before anything is written, in D16's order: the channel id, the
 * recipient (D15), its address, opt-out and suppression (`whyNot`, the rule flows and
 * reachability share), a connected channel (live keys), the content (template, window,
 * placeholders, rendered limits). The quota is counted by the write (`acceptMessage`).
 */
async function checkMessage(database: Database, sender: Sender, input: SendMessageRequest) {
  const channelId = await pickChannel(database.query, sender, input);
  // A template's read needs only the channel, so it runs beside the recipient's; its errors
  // still come in D16's order, when the content is checked. (With no channel given, the read
  // finds the template on the first connected channel: the one a live send would use.)
  const template = input.whatsapp?.template
    ? lookUpTemplate(database, { id: channelId, workspaceId: sender.workspaceId }, input.whatsapp.template, sender.templatesVersion)
    : undefined;
  template?.catch(() => {}); // observed where the content is checked, or not needed
  const live = sender.mode === "live";
  const recipient = await resolveRecipient(database, sender, input.to, { suppression: live && channelOf(input.channel).suppressible });
  // D78: `to.name` with a phone or e-mail names a matched contact that has no name.
  const naming = recipient.exists && recipient.contact.name === null && input.to.contact_id === undefined && !!input.to.name;
  const contact = recipient.contact
    ? naming
      ? { ...recipient.contact, name: input.to.name! }
      : recipient.contact
    : draftContact(recipient.draft);
  // D16, D72: no address, opt-out, then (live e-mail) a suppressed address, read with the contact.
  const target = { workspaceId: sender.workspaceId, mode: sender.mode, channel: input.channel, contact };
  const [refused] = await whyNot(database.query, target, { suppressed: recipient.suppressed });
  if (refused) throw refused.error!;
  const address = deliveryAddress(contact, input.channel).address!;
  const liveChannel = live
    ? (channelId ?? (await connectedChannel({ database, version: sender.templatesVersion }, sender.workspaceId, input.channel)))
    : channelId;
  const content = await messageContent(database.query, sender, input, contact, liveChannel, { missing: "refuse", template });
  const now = new Date();
  // D76: a `send_at` a few seconds past (clock skew) means now.
  const sendAt = input.send_at !== undefined && Date.parse(input.send_at) > now.getTime() ? new Date(input.send_at) : null;
  return { recipient, naming, contact, address, liveChannel, content, now, sendAt };
}

type Checked = Awaited<ReturnType<typeof checkMessage>>;

/** The answer's row of a message just accepted (or, in a dry run, that would be). */
function viewRow(input: SendMessageRequest, checked: Checked, contactId: string, id = "") {
  return {
    id,
    status: "queued" as const,
    channel: input.channel,
    to: checked.address,
    contactId,
    metadata: input.metadata ?? {},
    providerMessageId: null,
    error: null,
    scheduledAt: checked.sendAt,
    sms: channelOf(input.channel).segments?.(checked.content) ?? null,
    sentAt: null,
    deliveredAt: null,
    readAt: null,
    createdAt: checked.now,
  };
}

/** A message's content as a dry run shows it: a template by its name, language and filled parameters. */
function renderedView(content: Content): RenderedContent {
  if ("template" in content) {
    const { name, language, parameters } = content.template;
    return { body: content.body, template: { name, language, parameters: Object.fromEntries(parameters.map((p) => [p.name, p.text])) } };
  }
  return content as RenderedContent;
}

/**
 * `checkMessage`, then what the write needs: creates the recipient's contact when it is new
 * (D15) and names a matched one (D78). The message ready to write, and how it will be answered.
 */
export async function prepareMessage(
  database: Database,
  sender: Sender,
  input: SendMessageRequest,
  opts: SendOptions = {},
): Promise<{ accepted: Accepted; view: Message }> {
  const checked = await checkMessage(database, sender, input);
  const { recipient, contact } = checked;
  const create = opts.createContact ?? ((draft: RecipientDraft) => upsertContact(database, sender, draft));
  const contactId = recipient.exists ? contact.id : (await create(recipient.draft)).id;
  if (checked.naming) {
    await upsertContact(
      database,
      sender,
      input.to.phone !== undefined
        ? { phone: contact.phone!, name: contact.name }
        : input.to.whatsapp_user_id !== undefined
          ? { whatsapp_user_id: contact.whatsapp_user_id!, name: contact.name }
          : { email: contact.email!, name: contact.name },
    );
  }
  const message: NewMessage = {
    sender,
    channel: input.channel,
    channelId: checked.liveChannel,
    contactId,
    address: checked.address,
    content: checked.content,
    source: opts.source ?? "api",
    apiKeyId: opts.apiKeyId ?? null,
    metadata: input.metadata ?? {},
    sendAt: checked.sendAt,
  };
  const id = newId("message");
  const view = messageView(viewRow(input, checked, contactId, id));
  return { accepted: { id, message, at: checked.now, cause: currentCause() }, view };
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
  const [channel] = await sql<Columns<"channels", "id" | "type" | "paused_reason">>(
    `SELECT id, type::text AS type, paused_reason FROM channels WHERE id = $1 AND workspace_id = $2 AND disconnected_at IS NULL`,
    [input.channel_id, sender.workspaceId],
  );
  if (!channel || channel.type !== input.channel) throw notFound(`${input.channel} channel`, "channel_id");
  // D90: a channel WhatsApp stopped refuses every live send until it is resumed.
  if (sender.mode === "live" && stopsEverySend(channel.paused_reason)) throw channelPausedError(channel, channel.paused_reason!);
  return channel.id;
}

function draftContact(draft: RecipientDraft): Contact {
  return {
    id: "",
    phone: draft.phone ?? null,
    email: draft.email ?? null,
    whatsapp_user_id: draft.whatsapp_user_id ?? null,
    whatsapp_username: null,
    name: draft.name ?? null,
    tags: [],
    fields: {},
    ...optOuts(() => false),
    whatsapp_marketing_opt_out: false,
    whatsapp_window_expires_at: null,
    time_zone: null,
    created_at: "",
    updated_at: "",
  };
}

/**
 * The content of a message (API sends and flow send steps): on a channel that sends templates
 * (its module says), `whatsappContent`'s choice; on another, its free-form content rendered.
 */
export async function messageContent(
  sql: Handle,
  sender: Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry" | "templatesVersion">,
  input: SendMessageRequest,
  contact: Contact,
  channelId: string | null,
  opts: ContentOptions,
): Promise<Content> {
  if (channelOf(input.channel).templates) return whatsappContent(sql, sender, input, contact, channelId, opts);
  return renderContent(input, contact, opts);
}

type ContentOptions = Pick<RenderOptions, "missing"> & { fallback?: boolean; now?: Date; template?: Promise<StoredTemplate> };

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
  opts: ContentOptions,
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
    // D90: the contact stopped marketing messages (Meta's 131050); other templates still go.
    if (template.category === "marketing" && contact.whatsapp_marketing_opt_out) {
      throw conflict("marketing_opted_out", "The recipient stopped marketing messages on WhatsApp: send a utility template instead.", "to");
    }
    const values = placeholderValues(input.variables ?? {}, { ...contact, id: contact.id || "" });
    const filled: Record<string, string> = {};
    for (const p of parameters) filled[p.name] = render(given[p.name]!, values, { ...opts, limit: parameterLimit(p.name) });
    return templateContent(template, parameters, filled);
  }
  if (!open) throw windowClosedError(sender.mode, contact, w.body !== undefined ? "whatsapp.body" : "whatsapp.media_url");
  return renderContent(input, contact, opts);
}

/** D48: a template parameter's limit (D16) applies to its rendered text too. */
const parameterLimit = (name: string) => ({ param: `whatsapp.template.parameters.${name}`, max: 1024, unit: "characters" as const });

/**
 * The message as it will be sent, placeholders filled (D17), for API sends and flow send
 * steps alike: the channel's module says which texts and their limits; a rendered text over
 * its limit is `400 rendered_too_long` (D48).
 */
export function renderContent(input: SendMessageRequest, contact: Contact, opts: Pick<RenderOptions, "missing">): Content {
  const values = placeholderValues(input.variables ?? {}, { ...contact, id: contact.id || "" });
  return channelOf(input.channel).render(input[input.channel], (text, o) => render(text, values, { ...opts, ...o }));
}
