import { z } from "zod";
import { TEMPLATE_CATEGORIES, type TemplateStatus } from "./template-schemas.ts";

// Meta's JSON of a template, read into what the service stores and checks sends against.

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

export const PARAMETER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

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

export type ParsedTemplate = {
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

export function parseTemplate(item: unknown): ParsedTemplate | null {
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
