import { z } from "zod";
import type { Database, Handle } from "../db/client.ts";
import { env } from "../lib/env.ts";
import { conflict, invalid, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { postJson } from "../providers/http-post.ts";
import { loadChannel } from "../providers/load-channel.ts";
import { DEFAULT_GRAPH_API_BASE_URL, type ChannelConfig } from "../providers/provider.ts";
import { completeJob, rescheduleJob, type Job } from "../outbox/jobs.ts";
import { bumpTemplatesVersion } from "./templates-version.ts";
import { parseTemplate, statusOf, type ParsedTemplate } from "./parse-template.ts";
import type { Columns } from "../db/rows.ts";

// Keeps the service's copy of a WhatsApp channel's templates (D41) in step with the Cloud API:
// on connect, every 15 minutes, on demand, and on Meta's status webhook.

/** How often the periodic sync runs (D41). */
export const TEMPLATE_SYNC_EVERY_MS = 15 * 60_000;
/** One sync reads at most this many pages of Meta's listing (100 templates a page). */
const MAX_PAGES = 50;
const SYNC_TIMEOUT_MS = 15_000;

const ZMetaListing = z.looseObject({
  data: z.array(z.unknown()),
  paging: z.looseObject({ cursors: z.looseObject({ after: z.string().optional() }).optional(), next: z.string().optional() }).optional(),
});

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
      const [row] = await sql<Columns<"whatsapp_templates", "id">>(
        `INSERT INTO whatsapp_templates (id, workspace_id, channel_id, external_id, name, language, category, status, parameters, body, components, parameter_format, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11::jsonb, $12, $13, $13)
         ON CONFLICT (workspace_id, channel_id, name, language) DO UPDATE SET
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
    const removed = await sql(`DELETE FROM whatsapp_templates WHERE channel_id = $1 AND NOT (id = ANY($2::text[])) RETURNING id`, [
      channel.id,
      keep,
    ]);
    await sql(`UPDATE channels SET templates_synced_at = $2 WHERE id = $1`, [channel.id, now]);
    if (keep.length || removed.length) await bumpTemplatesVersion(sql, [channel.workspaceId]);
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
  // Events that do not change the status (LOCKED, UNLOCKED, …) leave it as it is.
  if (status && ["LOCKED", "UNLOCKED", "LIMIT_EXCEEDED"].includes(update.event.toUpperCase())) return 0;
  const rows = status
    ? await sql<{ workspace_id: string }>(
        `UPDATE whatsapp_templates SET status = $5, updated_at = now() WHERE ${match} AND status <> $5 RETURNING workspace_id`,
        [...params, status],
      )
    : await sql<{ workspace_id: string }>(`DELETE FROM whatsapp_templates WHERE ${match} RETURNING workspace_id`, params);
  await bumpTemplatesVersion(
    sql,
    rows.map((r) => r.workspace_id),
  );
  return rows.length;
}

/**
 * The pipeline's periodic sync (D41, `whatsapp.templates_sync`, one job per channel, created
 * on connect): syncs, then comes back in 15 minutes; ends with the channel's disconnection.
 * A failed sync is logged in the job and tried again at the next period.
 */
export async function templateSyncJob(database: Database, job: Job<"whatsapp.templates_sync">, owner: string): Promise<string> {
  const channel = await database.prisma.channel.findUnique({
    where: { workspaceId_id: { workspaceId: job.workspace_id, id: job.subject_id } },
    select: { disconnectedAt: true },
  });
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
