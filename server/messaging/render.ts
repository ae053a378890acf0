import { invalid } from "../lib/errors.ts";
import { escapeHtml } from "../lib/html.ts";
import type { RenderLimit } from "../channels/channel.ts";

// Placeholders (spec "What the service does" 6, D17): `{{name}}`, optional spaces inside the
// braces. Values come from, in order: the request's `variables`, the contact's custom fields,
// then the contact's name, phone, email and contact_id.

export type Scalar = string | number | boolean;
export type PlaceholderContact = {
  id: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  fields: Record<string, Scalar>;
};

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g;

export function placeholderValues(variables: Record<string, Scalar>, contact: PlaceholderContact): Map<string, string> {
  const values = new Map<string, string>();
  const builtIn: Record<string, string | null> = { name: contact.name, phone: contact.phone, email: contact.email, contact_id: contact.id };
  for (const [k, v] of Object.entries(builtIn)) if (v !== null) values.set(k, v);
  for (const [k, v] of Object.entries(contact.fields)) values.set(k, String(v));
  for (const [k, v] of Object.entries(variables)) values.set(k, String(v));
  return values;
}

/** The names used in `text`, in order of appearance. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

export type RenderOptions = {
  /** API sends refuse a missing value (`400`, `param` = `variables.<name>`); flows render "". */
  missing: "refuse" | "empty";
  /** Values inserted into HTML are escaped (D17). */
  html?: boolean;
  /** D48: the longest the rendered text may be; rendering stops as soon as it is passed. */
  limit?: RenderLimit;
};

/**
 * Fills the placeholders of `text`. With a limit, the output is measured piece by piece and
 * `400 rendered_too_long` is thrown at the first piece that passes it, so a small template
 * with many placeholders never builds a large string (D48).
 */
export function render(text: string, values: Map<string, string>, opts: RenderOptions): string {
  const { limit } = opts;
  const measure = limit?.unit === "bytes" ? (s: string) => Buffer.byteLength(s) : (s: string) => s.length;
  const parts: string[] = [];
  let size = 0;
  const add = (piece: string) => {
    if (limit) {
      size += measure(piece);
      if (size > limit.max) throw renderedTooLong(limit);
    }
    parts.push(piece);
  };
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    add(text.slice(last, match.index));
    add(placeholderValue(match[1]!, values, opts));
    last = match.index + match[0].length;
  }
  add(text.slice(last));
  return parts.join("");
}

function placeholderValue(name: string, values: Map<string, string>, opts: RenderOptions): string {
  const value = values.get(name);
  if (value === undefined) {
    if (opts.missing === "empty") return "";
    throw invalid("missing_variable", `The placeholder {{${name}}} has no value: give it in variables.${name}.`, `variables.${name}`);
  }
  return opts.html ? escapeHtml(value) : value;
}

function renderedTooLong(limit: RenderLimit): Error {
  const most = limit.unit === "bytes" ? `${limit.max / 1024} KiB` : `${limit.max} characters`;
  return invalid("rendered_too_long", `${limit.param} is longer than ${most} once its placeholders are filled.`, limit.param);
}
