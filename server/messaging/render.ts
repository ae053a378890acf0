import { invalid } from "../lib/errors.ts";

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
};

export function render(text: string, values: Map<string, string>, opts: RenderOptions): string {
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const value = values.get(name);
    if (value === undefined) {
      if (opts.missing === "empty") return "";
      throw invalid("missing_variable", `The placeholder {{${name}}} has no value: give it in variables.${name}.`, `variables.${name}`);
    }
    return opts.html ? escapeHtml(value) : value;
  });
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
