"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { CreateFormFooter, FieldError } from "@/app/_components/form-feedback.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useWorkspaceFields } from "@/app/_components/use-catalog.ts";
import { useFocusFirstInvalid } from "@/app/_components/use-focus-invalid.ts";
import { When } from "@/app/_components/when.tsx";
import { FIELD_TYPES, type CustomField } from "@/server/fields/field-schemas.ts";
import { QueryState } from "@/app/_components/query-state.tsx";

type FieldType = (typeof FIELD_TYPES)[number];

const TYPE_LABEL: Record<FieldType, string> = {
  text: "Text",
  number: "Number",
  date: "Date (YYYY-MM-DD)",
  boolean: "Yes / no (boolean)",
};

function isFieldType(value: unknown): value is FieldType {
  return (FIELD_TYPES as readonly unknown[]).includes(value);
}

/** The custom fields of the workspace, and (admins) the form that adds one. */
export function FieldsSection({ canManage }: { canManage: boolean }) {
  const fields = useWorkspaceFields();
  return (
    <section className="section" aria-labelledby="fields-heading">
      <h2 id="fields-heading">Custom fields</h2>
      {canManage && <CreateFieldForm />}
      <QueryState query={fields} what="the custom fields" />
      {fields.data && <FieldsTable fields={fields.data} />}
    </section>
  );
}

function FieldsTable({ fields }: { fields: CustomField[] }) {
  if (fields.length === 0) return <p className="empty">No custom fields yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Custom fields of this workspace</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Placeholder</th>
            <th scope="col">Type</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={field.id}>
              <th scope="row">{field.name}</th>
              <td>
                <code>{`{{${field.key}}}`}</code>
              </td>
              <td>{TYPE_LABEL[field.type]}</td>
              <td>
                <When value={field.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const CONTROLS = ["name", "key", "type"] as const;

function CreateFieldForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation(trpc.fields.create.mutationOptions());
  useFocusFirstInvalid(form, create.error);
  const fault = create.isError ? apiFault(create.error) : null;
  const errorAt = (param: string) => faultAt(fault, param);
  const general = fault && !CONTROLS.some((param) => errorAt(param)) ? fault.message : null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = event.currentTarget;
    const data = new FormData(target);
    const type = data.get("type");
    setCreated(null);
    create.mutate(
      { name: String(data.get("name") ?? ""), key: String(data.get("key") ?? "").trim(), type: isFieldType(type) ? type : "text" },
      {
        onSuccess: async (field) => {
          await queryClient.invalidateQueries(trpc.fields.list.queryFilter());
          target.reset();
          setCreated(`Field “${field.name}” created: use {{${field.key}}} in messages.`);
        },
      },
    );
  }

  const a11y = (param: string) => ({
    id: `field-${param}`,
    "aria-invalid": errorAt(param) ? true : undefined,
    "aria-describedby": [`field-${param}-hint`, errorAt(param) ? `field-${param}-error` : null].filter(Boolean).join(" ") || undefined,
  });
  const error = (param: string) => <FieldError id={`field-${param}-error`} message={errorAt(param)} />;

  return (
    <form ref={form} className="inline-form" aria-label="New custom field" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor="field-name">Name</label>
        <input {...a11y("name")} name="name" required maxLength={100} placeholder="e.g. Plan" autoComplete="off" />
        <span id="field-name-hint" className="muted">
          What people see.
        </span>
        {error("name")}
      </div>
      <div className="field">
        <label htmlFor="field-key">Key</label>
        <input {...a11y("key")} name="key" required maxLength={64} placeholder="e.g. plan" autoComplete="off" spellCheck={false} />
        <span id="field-key-hint" className="muted">
          a-z, 0-9 and _, starting with a letter; becomes <code>{"{{key}}"}</code>.
        </span>
        {error("key")}
      </div>
      <div className="field">
        <label htmlFor="field-type">Type</label>
        <select {...a11y("type")} name="type" defaultValue="text">
          {FIELD_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABEL[type]}
            </option>
          ))}
        </select>
        <span id="field-type-hint" className="muted">
          Values are checked against it.
        </span>
        {error("type")}
      </div>
      <CreateFormFooter label="Create field" pending={create.isPending} error={general} done={created} />
    </form>
  );
}
