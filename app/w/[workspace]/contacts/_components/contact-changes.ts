import { CHANNEL_TYPES, optOutColumn } from "@/app/_channels/channel-words.ts";
import type { Contact, OptOutColumn } from "@/server/contacts/contact-schemas.ts";
import type { CustomField } from "@/server/fields/field-schemas.ts";

export type FieldValue = string | number | boolean;

/** The body of `contacts.upsert` / `contacts.update` without the id. */
export type ContactChanges = {
  phone?: string;
  email?: string;
  name?: string | null;
  tags?: string[];
  fields?: Record<string, FieldValue | null>;
  time_zone?: string | null;
} & Partial<Record<OptOutColumn, boolean>>;

/** What the contact form holds; a custom field's empty input is null. */
export type ContactFormValues = {
  name: string;
  phone: string;
  email: string;
  tags: string[];
  fields: Record<string, FieldValue | null>;
  /** Each channel's opt-out (`opt_out_<type>`). */
  optOuts: Record<OptOutColumn, boolean>;
  timeZone: string;
};

/** Errors found before sending, by the parameter name the server would use. */
export type FormErrors = Record<string, string>;

/** Reads the contact form's controls (names as the API's parameters: `fields.<key>`). */
export function readContactForm(form: HTMLFormElement, fields: CustomField[]): { values: ContactFormValues; errors: FormErrors } {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? "").trim();
  const errors: FormErrors = {};
  const values: ContactFormValues["fields"] = {};
  for (const field of fields) {
    const param = `fields.${field.key}`;
    const input = form.elements.namedItem(param);
    if (!(input instanceof HTMLInputElement)) continue;
    if (field.type === "boolean") {
      values[field.key] = input.checked;
    } else if (field.type === "number") {
      // A number input holding something that is not a number reads as "": say so instead of
      // silently removing the value.
      if (input.validity.badInput) errors[param] = `${field.name} must be a number.`;
      values[field.key] = input.value.trim() === "" ? null : Number(input.value);
    } else {
      values[field.key] = input.value.trim() === "" ? null : field.type === "text" ? input.value : input.value.trim();
    }
  }
  return {
    values: {
      name: text("name"),
      phone: text("phone"),
      email: text("email"),
      tags: data.getAll("tags").map(String),
      fields: values,
      optOuts: Object.fromEntries(CHANNEL_TYPES.map((type) => [optOutColumn(type), data.get(optOutColumn(type)) === "on"])) as Record<
        OptOutColumn,
        boolean
      >,
      timeZone: text("time_zone"),
    },
    errors,
  };
}

/**
 * The request for the form's values. A new contact sends what was filled in. An edit sends
 * only what differs from the stored contact, so an unchanged form changes nothing and emits
 * no event (D14); an emptied custom field is sent as null, which removes its value.
 */
export function contactChanges(values: ContactFormValues, before: Contact | null): { changes: ContactChanges; errors: FormErrors } {
  const changes: ContactChanges = {};
  const errors: FormErrors = {};
  if (!before) {
    if (values.name) changes.name = values.name;
    if (values.phone) changes.phone = values.phone;
    if (values.email) changes.email = values.email;
    if (values.tags.length) changes.tags = values.tags;
    const filled = Object.entries(values.fields).filter(([, v]) => v !== null && v !== false);
    if (filled.length) changes.fields = Object.fromEntries(filled);
    for (const type of CHANNEL_TYPES) if (values.optOuts[optOutColumn(type)]) changes[optOutColumn(type)] = true;
    if (values.timeZone) changes.time_zone = values.timeZone;
    return { changes, errors };
  }

  if ((values.name || null) !== before.name) changes.name = values.name || null;
  for (const key of ["phone", "email"] as const) {
    if (values[key] === (before[key] ?? "")) continue;
    // The API replaces a phone or an e-mail but has no way to remove one.
    if (!values[key]) errors[key] = `The ${key === "phone" ? "phone number" : "e-mail address"} can be changed but not removed.`;
    else changes[key] = values[key];
  }
  if ([...values.tags].sort().join() !== [...before.tags].sort().join()) changes.tags = values.tags;
  const fields: Record<string, FieldValue | null> = {};
  for (const [key, value] of Object.entries(values.fields)) {
    const stored = before.fields[key];
    if (value === stored) continue;
    if (stored === undefined && (value === null || value === false)) continue;
    fields[key] = value;
  }
  if (Object.keys(fields).length) changes.fields = fields;
  for (const type of CHANNEL_TYPES) {
    const column = optOutColumn(type);
    if (values.optOuts[column] !== before[column]) changes[column] = values.optOuts[column];
  }
  if ((values.timeZone || null) !== before.time_zone) changes.time_zone = values.timeZone || null;
  return { changes, errors };
}
