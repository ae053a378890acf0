import type { Database, Handle } from "../db/client.ts";
import { groupCommitEach } from "../lib/group-commit.ts";
import { byWorkspace } from "../lib/per-workspace.ts";
import { versionedCache } from "../lib/versioned-cache.ts";
import { conflict, invalid } from "../lib/errors.ts";
import type { TemplateContent } from "../providers/whatsapp-template.ts";
import { PARAMETER, templateParameters, type TemplateParameter } from "./parse-template.ts";

// Sends with `whatsapp.template` (D42): the template a send names, read from the service's copy
// (sync-templates.ts), checked, and its parameters filled into the content the message stores.

export type TemplateRequest = { name: string; language: string; parameters?: Record<string, string> };

export type StoredTemplate = {
  id: string;
  name: string;
  language: string;
  status: string;
  /** `marketing`, `utility` or `authentication` as Meta files it (D90: marketing opt-outs). */
  category: string;
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
// `$3` the language, `$4` the workspace (D87: named to both tables, the read runs on its shard).
const find = (channelId: string, name: string, language: string, workspaceId: string) => `
  SELECT id, name, language, status, category, parameter_format AS "parameterFormat", components, body
  FROM whatsapp_templates
  WHERE workspace_id = ${workspaceId} AND channel_id = COALESCE(${channelId}::text, (
      SELECT id FROM channels WHERE workspace_id = ${workspaceId} AND type = 'whatsapp'::"ChannelType" AND disconnected_at IS NULL
      ORDER BY created_at, id LIMIT 1))
    AND name = ${name} AND language = ${language}`;
const FIND_TEMPLATE = find("$1", "$2", "$3", "$4");
// The same read for many sends of one workspace ($4), each answered by its ordinality `i` (1-based).
const FIND_TEMPLATES = `
  SELECT k.i, t.* FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS k(channel_id, name, language, i)
  CROSS JOIN LATERAL (${find("k.channel_id", "k.name", "k.language", "$4")}) t`;

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

// Sends of one template at once (a code or a notice to many contacts) read it once; one
// statement a workspace, side by side.
const readTemplates = groupCommitEach(async (database: Database, asks: readonly TemplateAsk[]) => {
  const unique = [...new Map(asks.map((a) => [templateKey(a), a])).values()];
  const found = new Map<string, StoredTemplate>();
  await Promise.all(
    byWorkspace(unique, (a) => a.channel.workspaceId).map(async (group) => {
      const rows = await database.query<StoredTemplate & { i: string }>(FIND_TEMPLATES, [
        group.map((a) => a.channel.id),
        group.map((a) => a.request.name),
        group.map((a) => a.request.language),
        group[0]!.channel.workspaceId,
      ]);
      for (const { i, ...row } of rows) found.set(templateKey(group[Number(i) - 1]!), row);
    }),
  );
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

/** The content a template message stores and sends: the template with its parameters' texts. */
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
