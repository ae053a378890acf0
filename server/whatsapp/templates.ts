import { z } from "zod";
import { loadChannel } from "../channels/load-channel.ts";
import { DEFAULT_GRAPH_API_BASE_URL } from "../channels/channel-schemas.ts";
import type { Database, Handle } from "../db/client.ts";
import { env } from "../lib/env.ts";
import { groupCommitEach } from "../lib/group-commit.ts";
import { versionedCache } from "../lib/versioned-cache.ts";
import { conflict, invalid, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { listPage, PAGE_ORDER, type PageQuery } from "../lib/pagination.ts";
import { postJson } from "../providers/http-post.ts";
import type { ChannelConfig } from "../providers/provider.ts";
import { completeJob, rescheduleJob, type Job } from "../outbox/jobs.ts";

// A WhatsApp channel's message templates (D41): the service keeps a copy of what the Cloud API
// lists at `GET /{waba_id}/message_templates`, synced when the channel is connected, every 15
// minutes (the `whatsapp.templates_sync` job), on demand, and on Meta's
// `message_template_status_update` webhook. Sends with `whatsapp.template` are checked against
// this copy before anything is written (D42).

export const TEMPLATE_CATEGORIES = ["marketing", "utility", "authentication"] as const;
export const TEMPLATE_STATUSES = ["approved", "pending", "rejected", "paused", "disabled"] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

/** How often the periodic sync runs (D41). */
export const TEMPLATE_SYNC_EVERY_MS = 15 * 60_000;
/** One sync reads at most this many pages of Meta's listing (100 templates a page). */
const MAX_PAGES = 50;
const SYNC_TIMEOUT_MS = 15_000;

export const ZTemplate = z
  .object({
    id: z.string().describe("Prefix `tpl_`."),
    channel_id: z.string().describe("The WhatsApp channel whose business account holds the template. Prefix `ch_`."),
    name: z.string(),
    language: z.string().describe("Meta's language code, such as `en_US` or `pt_BR`."),
    category: z.enum(TEMPLATE_CATEGORIES),
    status: z.enum(TEMPLATE_STATUSES).describe("Only `approved` templates can be sent."),
    parameters: z
      .array(z.string())
      .describe(
        "The ordered names of the template's parameters: the header's, then the body's. Named parameters keep their names; positional ones are `1`, `2`, … (a positional header parameter is `header_1`).",
      ),
    body: z.string().describe("The body text as Meta holds it, with its `{{…}}` parameters."),
    updated_at: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "WhatsAppTemplate" });

export type Template = z.infer<typeof ZTemplate>;

type TemplateRow = {
  id: string;
  channelId: string;
  name: string;
  language: string;
  category: string;
  status: string;
  parameters: unknown;
  body: string;
  updatedAt: Date;
};

export function templateView(row: TemplateRow): Template {
  return {
    id: row.id,
    channel_id: row.channelId,
    name: row.name,
    language: row.language,
    category: (TEMPLATE_CATEGORIES as readonly string[]).includes(row.category) ? (row.category as Template["category"]) : "utility",
    status: (TEMPLATE_STATUSES as readonly string[]).includes(row.status) ? (row.status as TemplateStatus) : "disabled",
    parameters: Array.isArray(row.parameters) ? (row.parameters as string[]) : [],
    body: row.body,
    updated_at: row.updatedAt.toISOString(),
  };
}

const TEMPLATE_SELECT = {
  id: true,
  channelId: true,
  name: true,
  language: true,
  category: true,
  status: true,
  parameters: true,
  body: true,
  updatedAt: true,
  createdAt: true,
} as const;

// ---- Meta's JSON ----

const ZMetaComponent = z.looseObject({
  type: z.string(),
  format: z.string().optional(),
  text: z.string().optional(),
});

const ZMetaTemplate = z.looseObject({
  id: z.coerce.string().optional(),
  name: z.string().min(1).max(512),
  language: z.string().min(1).max(32),
  status: z.string(),
  category: z.string(),
  parameter_format: z.string().optional(),
  components: z.array(ZMetaComponent).default([]),
});

const ZMetaListing = z.looseObject({
  data: z.array(z.unknown()),
  paging: z.looseObject({ cursors: z.looseObject({ after: z.string().optional() }).optional(), next: z.string().optional() }).optional(),
});

/** Meta's template status as ours; null for an event that removes the template (deleted). */
export function statusOf(metaStatus: string): TemplateStatus | null {
  switch (metaStatus.toUpperCase()) {
    case "APPROVED":
    case "REINSTATED":
    case "FLAGGED": // still sendable, at risk
      return "approved";
    case "PENDING":
    case "IN_APPEAL":
      return "pending";
    case "REJECTED":
      return "rejected";
    case "PAUSED":
      return "paused";
    case "DELETED":
    case "PENDING_DELETION":
      return null;
    default: // DISABLED, ARCHIVED, LIMIT_EXCEEDED and any later value: not sendable
      return "disabled";
  }
}

const PARAMETER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

function namesIn(text: string | undefined): string[] {
  const out: string[] = [];
  for (const match of (text ?? "").matchAll(PARAMETER)) if (!out.includes(match[1]!)) out.push(match[1]!);
  return out;
}

/** One template parameter: its public name, the component it fills and Meta's own name. */
export type TemplateParameter = { name: string; component: "header" | "body"; metaName: string };

/** The parameters of a template's text header and body, in the order they are sent. */
export function templateParameters(components: unknown, parameterFormat: string): TemplateParameter[] {
  const list = Array.isArray(components) ? (components as z.infer<typeof ZMetaComponent>[]) : [];
  const named = parameterFormat.toLowerCase() === "named";
  const header = list.find((c) => c.type?.toUpperCase() === "HEADER" && (c.format ?? "TEXT").toUpperCase() === "TEXT");
  const body = list.find((c) => c.type?.toUpperCase() === "BODY");
  const out: TemplateParameter[] = [];
  for (const name of namesIn(header?.text)) out.push({ name: named ? name : `header_${name}`, component: "header", metaName: name });
  for (const name of namesIn(body?.text)) {
    if (named && out.some((p) => p.name === name)) continue;
    out.push({ name, component: "body", metaName: name });
  }
  return out;
}

type ParsedTemplate = {
  externalId: string | null;
  name: string;
  language: string;
  category: string;
  status: TemplateStatus;
  parameterFormat: string;
  components: unknown[];
  parameters: string[];
  body: string;
};

function parseTemplate(item: unknown): ParsedTemplate | null {
  const t = ZMetaTemplate.safeParse(item);
  if (!t.success) return null;
  const status = statusOf(t.data.status);
  if (!status) return null;
  const category = t.data.category.toLowerCase();
  const parameterFormat = (t.data.parameter_format ?? "POSITIONAL").toLowerCase() === "named" ? "named" : "positional";
  return {
    externalId: t.data.id ?? null,
    name: t.data.name,
    language: t.data.language,
    category: (TEMPLATE_CATEGORIES as readonly string[]).includes(category) ? category : "utility",
    status,
    parameterFormat,
    components: t.data.components,
    parameters: templateParameters(t.data.components, parameterFormat).map((p) => p.name),
    body: t.data.components.find((c) => c.type.toUpperCase() === "BODY")?.text ?? "",
  };
}

// ---- Sync ----

export type SyncResult = { channel_id: string; templates: number; synced_at: string };

/** Reads every page of the channel's business account's templates from the Cloud API. */
async function fetchTemplates(channel: ChannelConfig): Promise<ParsedTemplate[]> {
  const wabaId = channel.settings.waba_id;
  if (!wabaId)
    throw invalid("waba_id_missing", "The channel has no WhatsApp Business account id: connect it again with waba_id.", "channel_id");
  const base = (channel.settings.api_base_url ?? DEFAULT_GRAPH_API_BASE_URL).replace(/\/+$/, "");
  const out: ParsedTemplate[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = new URL(`${base}/${encodeURIComponent(wabaId)}/message_templates`);
    url.searchParams.set("fields", "id,name,language,status,category,parameter_format,components");
    url.searchParams.set("limit", "100");
    if (after) url.searchParams.set("after", after);
    let answer;
    try {
      answer = await postJson(url, { authorization: `Bearer ${channel.secrets.access_token ?? ""}` }, "", {
        method: "GET",
        timeoutMs: SYNC_TIMEOUT_MS,
        allowPrivate: env().allowPrivateWebhooks,
        maxBody: 4 * 1024 * 1024,
      });
    } catch (err) {
      throw new TemplateSyncError(`The Cloud API could not be reached: ${(err as Error).message}.`);
    }
    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch {
      json = undefined;
    }
    if (answer.status !== 200) {
      const message = (json as { error?: { message?: string } } | undefined)?.error?.message;
      throw new TemplateSyncError(`The Cloud API answered ${answer.status}${message ? `: ${message}` : ""}.`);
    }
    const listing = ZMetaListing.safeParse(json);
    if (!listing.success) throw new TemplateSyncError("The Cloud API's answer is not a template listing.");
    for (const item of listing.data.data) {
      const parsed = parseTemplate(item);
      if (parsed) out.push(parsed);
    }
    after = listing.data.paging?.next ? listing.data.paging.cursors?.after : undefined;
    if (!after) return out;
  }
  return out;
}

export class TemplateSyncError extends Error {
  override name = "TemplateSyncError";
}

/**
 * Replaces the channel's copy with what the Cloud API lists now: new templates are added,
 * changed ones updated, ones no longer listed removed, and the channel's sync time set.
 */
export async function syncTemplates(database: Database, channelId: string): Promise<SyncResult> {
  const channel = await loadChannel(database, channelId);
  if (!channel || channel.type !== "whatsapp") throw notFound("WhatsApp channel", "channel_id");
  let listed: ParsedTemplate[];
  try {
    listed = await fetchTemplates(channel);
  } catch (err) {
    if (err instanceof TemplateSyncError) throw conflict("template_sync_failed", err.message, "channel_id");
    throw err;
  }
  const now = new Date();
  await database.transaction(async (sql) => {
    const keep: string[] = [];
    for (const t of listed) {
      const [row] = await sql<{ id: string }>(
        `INSERT INTO whatsapp_templates (id, workspace_id, channel_id, external_id, name, language, category, status, parameters, body, components, parameter_format, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11::jsonb, $12, $13, $13)
         ON CONFLICT (channel_id, name, language) DO UPDATE SET
           external_id = EXCLUDED.external_id, category = EXCLUDED.category, status = EXCLUDED.status,
           parameters = EXCLUDED.parameters, body = EXCLUDED.body, components = EXCLUDED.components,
           parameter_format = EXCLUDED.parameter_format,
           updated_at = CASE WHEN (whatsapp_templates.status, whatsapp_templates.body, whatsapp_templates.components::text, whatsapp_templates.category)
                             IS DISTINCT FROM (EXCLUDED.status, EXCLUDED.body, EXCLUDED.components::text, EXCLUDED.category)
                        THEN EXCLUDED.updated_at ELSE whatsapp_templates.updated_at END
         RETURNING id`,
        [
          newId("template"),
          channel.workspaceId,
          channel.id,
          t.externalId,
          t.name,
          t.language,
          t.category,
          t.status,
          JSON.stringify(t.parameters),
          t.body,
          JSON.stringify(t.components),
          t.parameterFormat,
          now,
        ],
      );
      keep.push(row!.id);
    }
    await sql(`DELETE FROM whatsapp_templates WHERE channel_id = $1 AND NOT (id = ANY($2::text[]))`, [channel.id, keep]);
    await sql(`UPDATE channels SET templates_synced_at = $2 WHERE id = $1`, [channel.id, now]);
  });
  return { channel_id: channel.id, templates: listed.length, synced_at: now.toISOString() };
}

/** The sync of a workspace's channel, checked to be that workspace's (CLI, dashboard). */
export async function syncWorkspaceTemplates(database: Database, workspaceId: string, channelId: string): Promise<SyncResult> {
  const owned = await database.prisma.channel.findFirst({
    where: { id: channelId, workspaceId, type: "whatsapp", disconnectedAt: null },
    select: { id: true },
  });
  if (!owned) throw notFound("WhatsApp channel", "channel_id");
  return syncTemplates(database, channelId);
}

/**
 * Meta's `message_template_status_update` webhook: the template's new status, or its removal
 * when deleted. Returns whether a stored template changed.
 */
export async function applyTemplateStatus(
  sql: Handle,
  channelIds: string[],
  update: { name: string; language: string; event: string; externalId?: string },
): Promise<number> {
  const status = statusOf(update.event);
  const language = update.language.replace("-", "_");
  const match = `channel_id = ANY($1::text[]) AND ((name = $2 AND replace(language, '-', '_') = $3) OR (external_id IS NOT NULL AND external_id = $4))`;
  const params = [channelIds, update.name, language, update.externalId ?? null];
  if (!status) return (await sql(`DELETE FROM whatsapp_templates WHERE ${match} RETURNING id`, params)).length;
  // Events that do not change the status (LOCKED, UNLOCKED, …) leave it as it is.
  if (["LOCKED", "UNLOCKED", "LIMIT_EXCEEDED"].includes(update.event.toUpperCase())) return 0;
  const rows = await sql(`UPDATE whatsapp_templates SET status = $5, updated_at = now() WHERE ${match} AND status <> $5 RETURNING id`, [
    ...params,
    status,
  ]);
  return rows.length;
}

// ---- Listing ----

export type TemplateFilter = { channel_id?: string; status?: TemplateStatus };

/** GET /whatsapp/templates (D41): the workspace's templates in D10's order and pages. */
export async function listTemplates(
  database: Database,
  workspaceId: string,
  filter: TemplateFilter,
  query: PageQuery,
  url: string | null,
): Promise<{ items: Template[]; link: string | null }> {
  const where = {
    workspaceId,
    ...(filter.channel_id ? { channelId: filter.channel_id } : {}),
    ...(filter.status ? { status: filter.status } : {}),
  };
  const { items, link } = await listPage(
    query,
    url,
    (id) => database.prisma.whatsAppTemplate.findFirst({ where: { id, workspaceId }, select: { id: true, createdAt: true } }),
    (after, take) =>
      database.prisma.whatsAppTemplate.findMany({ where: { AND: [where, after] }, orderBy: PAGE_ORDER, take, select: TEMPLATE_SELECT }),
  );
  return { items: items.map(templateView), link };
}

// ---- Sends (D42) ----

export type TemplateRequest = { name: string; language: string; parameters?: Record<string, string> };

export type StoredTemplate = {
  id: string;
  name: string;
  language: string;
  status: string;
  parameterFormat: string;
  components: unknown;
  body: string;
};

/**
 * The channel whose templates a WhatsApp send is checked against (D41, D42): the channel that
 * sends it, else (test keys, a flow being saved) the workspace's first connected one.
 */
export type TemplateChannel = { id: string | null; workspaceId: string };

/**
 * The stored template a send names on the channel that would send it, or D42's errors. One
 * statement, the fallback channel included: a template send costs one read more than a
 * free-form one, not two.
 */
export async function templateForSend(sql: Handle, channel: TemplateChannel, request: TemplateRequest): Promise<StoredTemplate> {
  const [row] = await sql<StoredTemplate>(FIND_TEMPLATE, [channel.id, request.name, request.language, channel.workspaceId]);
  return approved(row, request);
}

// `$1` the channel (null: the workspace's first connected WhatsApp channel), `$2` the name,
// `$3` the language, `$4` the workspace.
const find = (channelId: string, name: string, language: string, workspaceId: string) => `
  SELECT id, name, language, status, parameter_format AS "parameterFormat", components, body
  FROM whatsapp_templates
  WHERE channel_id = COALESCE(${channelId}::text, (
      SELECT id FROM channels WHERE workspace_id = ${workspaceId} AND type = 'whatsapp'::"ChannelType" AND disconnected_at IS NULL
      ORDER BY created_at, id LIMIT 1))
    AND name = ${name} AND language = ${language}`;
const FIND_TEMPLATE = find("$1", "$2", "$3", "$4");
// The same read for many sends, each answered by its ordinality `i` (1-based).
const FIND_TEMPLATES = `
  SELECT k.i, t.* FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS k(channel_id, name, language, ws, i)
  CROSS JOIN LATERAL (${find("k.channel_id", "k.name", "k.language", "k.ws")}) t`;

/**
 * `templateForSend` outside a transaction, for API sends. With `version`, the workspace's
 * templates_version that this request's key check read: a template (or its absence) read at
 * the same version is answered from this process's memory, since any change to the workspace's
 * templates or connected channels since then would have changed the version (a trigger). Else
 * it is read, the reads that arrive while one is in flight sharing the next statement
 * (`groupCommit`), as the recipients' do.
 */
export async function lookUpTemplate(
  database: Database,
  channel: TemplateChannel,
  request: TemplateRequest,
  version?: string,
): Promise<StoredTemplate> {
  const ask = { channel, request };
  return approved(await templates(database, templateKey(ask), version, () => readTemplates(database, ask)), request);
}

/** Templates kept in memory per process and database: up to about 10 MB at Meta's size limits. */
const templates = versionedCache<StoredTemplate | undefined>(2_000);

type TemplateAsk = { channel: TemplateChannel; request: TemplateRequest };
const templateKey = ({ channel, request }: TemplateAsk) =>
  JSON.stringify([channel.workspaceId, channel.id, request.name, request.language]);

// Sends of one template at once (a code or a notice to many contacts) read it once.
const readTemplates = groupCommitEach(async (database: Database, asks: readonly TemplateAsk[]) => {
  const unique = [...new Map(asks.map((a) => [templateKey(a), a])).values()];
  const rows = await database.query<StoredTemplate & { i: string }>(FIND_TEMPLATES, [
    unique.map((a) => a.channel.id),
    unique.map((a) => a.request.name),
    unique.map((a) => a.request.language),
    unique.map((a) => a.channel.workspaceId),
  ]);
  const found = new Map(rows.map(({ i, ...row }) => [templateKey(unique[Number(i) - 1]!), row]));
  return asks.map((a) => found.get(templateKey(a)));
});

/** D42: the template found, and approved. */
function approved(row: StoredTemplate | undefined, request: TemplateRequest): StoredTemplate {
  if (!row) {
    throw invalid(
      "template_not_found",
      `No template named ${request.name} in language ${request.language} on the WhatsApp channel that would send this message.`,
      "whatsapp.template.name",
    );
  }
  if (row.status !== "approved") {
    throw conflict(
      "template_not_approved",
      `The template ${request.name} (${request.language}) is ${row.status}; only approved templates can be sent.`,
      "whatsapp.template.name",
    );
  }
  return row;
}

/**
 * D42's checks of a template send, in order: the template on the channel, approved, its
 * parameters given. For API sends and for flow send steps when the flow is saved. `read`: the
 * template's read (`templateForSend`) when the caller started it ahead.
 */
export async function checkTemplateSend(
  sql: Handle,
  channel: TemplateChannel,
  request: TemplateRequest,
  read?: Promise<StoredTemplate>,
): Promise<{ template: StoredTemplate; parameters: TemplateParameter[] }> {
  const template = await (read ?? templateForSend(sql, channel, request));
  return { template, parameters: checkTemplateParameters(template, request.parameters ?? {}) };
}

/** D42: every parameter of the template given, and no other. */
export function checkTemplateParameters(template: StoredTemplate, given: Record<string, string>): TemplateParameter[] {
  const parameters = templateParameters(template.components, template.parameterFormat);
  for (const p of parameters) {
    if (given[p.name] === undefined) {
      throw invalid(
        "parameter_missing",
        `The template ${template.name} needs the parameter ${p.name}.`,
        `whatsapp.template.parameters.${p.name}`,
      );
    }
  }
  for (const name of Object.keys(given)) {
    if (!parameters.some((p) => p.name === name)) {
      throw invalid(
        "unknown_parameter",
        `The template ${template.name} has no parameter ${name}; its parameters are: ${parameters.map((p) => p.name).join(", ") || "none"}.`,
        `whatsapp.template.parameters.${name}`,
      );
    }
  }
  return parameters;
}

/** The stored content of a template message: what the Cloud API receives, and a preview. */
export type TemplateContent = {
  template: {
    name: string;
    language: string;
    parameter_format: string;
    parameters: { name: string; component: "header" | "body"; meta_name: string; text: string }[];
  };
  /** The body with its parameters filled, for the dashboard and the inspector. */
  body: string;
};

export function templateContent(
  template: StoredTemplate,
  parameters: TemplateParameter[],
  values: Record<string, string>,
): TemplateContent {
  const filled = parameters.map((p) => ({ name: p.name, component: p.component, meta_name: p.metaName, text: values[p.name] ?? "" }));
  const body = template.body.replace(PARAMETER, (whole, name: string) => {
    const p = filled.find((f) => f.component === "body" && f.meta_name === name);
    return p ? p.text : whole;
  });
  return {
    template: { name: template.name, language: template.language, parameter_format: template.parameterFormat, parameters: filled },
    body,
  };
}

/** The Cloud API's `template` object of a stored template message (`type: "template"`). */
export function cloudTemplatePayload(content: TemplateContent["template"]): Record<string, unknown> {
  const named = content.parameter_format === "named";
  const component = (type: "header" | "body") => {
    const parameters = content.parameters
      .filter((p) => p.component === type)
      .map((p) => ({ type: "text", text: p.text, ...(named ? { parameter_name: p.meta_name } : {}) }));
    return parameters.length ? [{ type, parameters }] : [];
  };
  const components = [...component("header"), ...component("body")];
  return { name: content.name, language: { code: content.language }, ...(components.length ? { components } : {}) };
}

/**
 * The pipeline's periodic sync (D41, `whatsapp.templates_sync`, one job per channel, created
 * on connect): syncs, then comes back in 15 minutes; ends with the channel's disconnection.
 * A failed sync is logged in the job and tried again at the next period.
 */
export async function templateSyncJob(database: Database, job: Job<"whatsapp.templates_sync">, owner: string): Promise<string> {
  const channel = await database.prisma.channel.findUnique({ where: { id: job.subject_id }, select: { disconnectedAt: true } });
  if (!channel || channel.disconnectedAt) {
    await completeJob(database.query, job, owner);
    return "skipped";
  }
  let error: string | undefined;
  try {
    await syncTemplates(database, job.subject_id);
  } catch (err) {
    error = (err as Error).message;
  }
  await rescheduleJob(database.query, job, owner, new Date(Date.now() + TEMPLATE_SYNC_EVERY_MS), {
    countAttempt: false,
    ...(error ? { error } : {}),
  });
  return error ? "sync_failed" : "synced";
}
