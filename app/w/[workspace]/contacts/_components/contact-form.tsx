"use client";

import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { FieldError } from "@/app/_components/form-feedback.tsx";
import { Swatch } from "@/app/_components/tag-chips.tsx";
import { useFocusFirstInvalid } from "@/app/_components/use-focus-invalid.ts";
import { CHANNEL_TYPES, optOutColumn } from "@/app/_channels/channel-words.ts";
import { CHANNEL_WORDS } from "@/app/_components/channel-names.ts";
import type { Contact } from "@/server/contacts/contact-schemas.ts";
import type { CustomField } from "@/server/fields/field-schemas.ts";
import type { Tag } from "@/server/tags/tag-schemas.ts";
import { contactChanges, readContactForm, type ContactChanges, type FormErrors } from "./contact-changes.ts";

type Props = {
  /** The stored contact when editing; null for a new one. */
  contact: Contact | null;
  tags: Tag[];
  fields: CustomField[];
  /** The server's refusal of the last submission (the mutation's error), if any. */
  error: unknown;
  pending: boolean;
  submitLabel: string;
  onSubmit: (changes: ContactChanges) => void;
  onCancel: () => void;
};

type A11y = { id: string; "aria-invalid": true | undefined; "aria-describedby": string | undefined };

/**
 * The contact's editable values: name, phone, e-mail, opt-outs, tags and one typed input per
 * custom field. An error is shown at the control the server's `param` names (`email`,
 * `tags.0`, `fields.plan`); one that names no control here is shown above the buttons.
 */
export function ContactForm({ contact, tags, fields, error, pending, submitLabel, onSubmit, onCancel }: Props) {
  const prefix = useId();
  const form = useRef<HTMLFormElement>(null);
  const [local, setLocal] = useState<FormErrors>({});
  const fault = error ? apiFault(error) : null;

  const controls = [
    "name",
    "phone",
    "email",
    "time_zone",
    ...CHANNEL_TYPES.map(optOutColumn),
    "tags",
    ...fields.map((f) => `fields.${f.key}`),
  ];
  const errorAt = (param: string): string | null => local[param] ?? faultAt(fault, param);
  const general = fault && !controls.some((param) => faultAt(fault, param)) ? fault.message : null;

  useFocusFirstInvalid(form, error || (Object.keys(local).length ? local : null));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const read = readContactForm(event.currentTarget, fields);
    const { changes, errors } = contactChanges(read.values, contact);
    const found = { ...read.errors, ...errors };
    setLocal(found);
    if (Object.keys(found).length === 0) onSubmit(changes);
  }

  function a11y(param: string): A11y {
    const id = `${prefix}-${param}`;
    const error = errorAt(param);
    return { id, "aria-invalid": error ? true : undefined, "aria-describedby": error ? `${id}-error` : undefined };
  }

  const tagsA11y = a11y("tags");
  const tagsError = errorAt("tags");
  return (
    <form ref={form} className="stack" onSubmit={submit} noValidate>
      <div className="form-grid">
        <TextField label="Name" a11y={a11y("name")} error={errorAt("name")}>
          <input {...a11y("name")} name="name" maxLength={200} defaultValue={contact?.name ?? ""} autoComplete="off" autoFocus />
        </TextField>
        <TextField label="Phone" a11y={a11y("phone")} error={errorAt("phone")} hint="With the country code, e.g. +55 11 98765-4321.">
          <input {...a11y("phone")} name="phone" type="tel" maxLength={64} defaultValue={contact?.phone ?? ""} autoComplete="off" />
        </TextField>
        <TextField label="E-mail" a11y={a11y("email")} error={errorAt("email")}>
          <input {...a11y("email")} name="email" type="email" maxLength={320} defaultValue={contact?.email ?? ""} autoComplete="off" />
        </TextField>
        <TextField
          label="Time zone"
          a11y={a11y("time_zone")}
          error={errorAt("time_zone")}
          hint="For a journey's quiet hours, e.g. America/Sao_Paulo. Empty: the phone number's country when it has one zone, else the workspace's."
        >
          <input
            {...a11y("time_zone")}
            name="time_zone"
            list={`${prefix}-zones`}
            maxLength={64}
            defaultValue={contact?.time_zone ?? ""}
            autoComplete="off"
          />
        </TextField>
        <datalist id={`${prefix}-zones`}>
          {Intl.supportedValuesOf("timeZone").map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
      </div>

      <fieldset>
        <legend>Opt-outs</legend>
        {CHANNEL_TYPES.map((type) => (
          <label key={type} className="choice">
            <input
              type="checkbox"
              name={optOutColumn(type)}
              defaultChecked={contact?.[optOutColumn(type)] ?? false}
              {...a11y(optOutColumn(type))}
            />
            Opted out of {CHANNEL_WORDS[type]}
          </label>
        ))}
      </fieldset>

      <fieldset aria-invalid={tagsA11y["aria-invalid"]} aria-describedby={tagsA11y["aria-describedby"]}>
        <legend>Tags</legend>
        {tags.length === 0 && <p className="muted">This workspace has no tags yet.</p>}
        <div className="scope-grid">
          {tags.map((tag) => (
            <label key={tag.id} className="choice">
              <input type="checkbox" name="tags" value={tag.id} defaultChecked={contact?.tags.includes(tag.id) ?? false} />
              <Swatch color={tag.color} decorative />
              {tag.name}
            </label>
          ))}
        </div>
        <FieldError id={`${tagsA11y.id}-error`} message={tagsError} />
      </fieldset>

      {fields.length > 0 && (
        <fieldset>
          <legend>Custom fields</legend>
          <div className="form-grid">
            {fields.map((field) => (
              <CustomFieldInput
                key={field.id}
                field={field}
                value={contact?.fields[field.key]}
                a11y={a11y(`fields.${field.key}`)}
                error={errorAt(`fields.${field.key}`)}
              />
            ))}
          </div>
          <p className="muted">An empty input removes the field&apos;s value.</p>
        </fieldset>
      )}

      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
      <div className="actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}

/** A labelled input (the child, given `a11y`), an optional hint and its error. */
function TextField({
  label,
  a11y,
  error,
  hint,
  children,
}: {
  label: string;
  a11y: A11y;
  error: string | null;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={a11y.id}>{label}</label>
      {children}
      {hint && <span className="muted">{hint}</span>}
      <FieldError id={`${a11y.id}-error`} message={error} />
    </div>
  );
}

const INPUT_TYPE = { text: "text", number: "number", date: "date" } as const;

/** One custom field's input, typed by the field: text, number, date, or a checkbox for boolean. */
function CustomFieldInput({ field, value, a11y, error }: { field: CustomField; value: unknown; a11y: A11y; error: string | null }) {
  const name = `fields.${field.key}`;
  const message = <FieldError id={`${a11y.id}-error`} message={error} />;
  const key = <code className="muted">{`{{${field.key}}}`}</code>;
  if (field.type === "boolean") {
    return (
      <div className="field">
        <label className="choice">
          <input type="checkbox" name={name} defaultChecked={value === true} {...a11y} />
          {field.name}
        </label>
        {key}
        {message}
      </div>
    );
  }
  const initial = value === undefined || typeof value === "boolean" ? "" : String(value);
  return (
    <div className="field">
      <label htmlFor={a11y.id}>{field.name}</label>
      <input
        {...a11y}
        name={name}
        type={INPUT_TYPE[field.type]}
        step={field.type === "number" ? "any" : undefined}
        maxLength={field.type === "text" ? 10_000 : undefined}
        defaultValue={initial}
        autoComplete="off"
      />
      {key}
      {message}
    </div>
  );
}
