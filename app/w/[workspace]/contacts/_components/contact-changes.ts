import type { Contact } from "@/server/contacts/contact-schemas.ts";
import type { CustomField } from "@/server/fields/field-schemas.ts";

export type FieldValue = string | number | boolean;

/** The body of `contacts.upsert` / `contacts.update` without the id. */
export type ContactChanges = {
  phone?: string;
  email?: string;
  name?: string | null;
  tags?: string[];
  fields?: Record<string, FieldValue | null>;
  opt_out_whatsapp?: boolean;
  opt_out_email?: boolean;
  time_zone?: string | null;
};

/** What the contact form holds; a custom field's empty input is null. */
export type ContactFormValues = {
  name: string;
  phone: string;
  email: string;
  tags: string[];
  fields: Record<string, FieldValue | null>;
  optOutWhatsapp: boolean;
  optOutEmail: boolean;
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
      optOutWhatsapp: data.get("opt_out_whatsapp") === "on",
      optOutEmail: data.get("opt_out_email") === "on",
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
    if (values.optOutWhatsapp) changes.opt_out_whatsapp = true;
    if (values.optOutEmail) changes.opt_out_email = true;
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
  if (values.optOutWhatsapp !== before.opt_out_whatsapp) changes.opt_out_whatsapp = values.optOutWhatsapp;
  if (values.optOutEmail !== before.opt_out_email) changes.opt_out_email = values.optOutEmail;
  if ((values.timeZone || null) !== before.time_zone) changes.time_zone = values.timeZone || null;
  return { changes, errors };
}
