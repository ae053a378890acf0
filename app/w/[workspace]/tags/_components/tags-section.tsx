"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { CreateFormFooter, FieldError } from "@/app/_components/form-feedback.tsx";
import { Swatch } from "@/app/_components/tag-chips.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useWorkspaceTags } from "@/app/_components/use-catalog.ts";
import { useFocusFirstInvalid } from "@/app/_components/use-focus-invalid.ts";
import { When } from "@/app/_components/when.tsx";
import type { Tag } from "@/server/tags/tag-schemas.ts";
import { QueryState } from "@/app/_components/query-state.tsx";

/** The tags of the workspace, and (admins) the form that adds one. */
export function TagsSection({ canManage }: { canManage: boolean }) {
  const tags = useWorkspaceTags();
  return (
    <section className="section" aria-labelledby="tags-heading">
      <h2 id="tags-heading">Tags</h2>
      {canManage && <CreateTagForm />}
      <QueryState query={tags} what="the tags" />
      {tags.data && <TagsTable tags={tags.data} />}
    </section>
  );
}

function TagsTable({ tags }: { tags: Tag[] }) {
  if (tags.length === 0) return <p className="empty">No tags yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Tags of this workspace</caption>
        <thead>
          <tr>
            <th scope="col">Color</th>
            <th scope="col">Name</th>
            <th scope="col">ID</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {tags.map((tag) => (
            <tr key={tag.id}>
              <td>
                <span className="color-cell">
                  <Swatch color={tag.color} />
                  {tag.color ? <code>{tag.color}</code> : <span className="muted">None</span>}
                </span>
              </td>
              <th scope="row">{tag.name}</th>
              <td>
                <code>{tag.id}</code>
              </td>
              <td>
                <When value={tag.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const DEFAULT_COLOR = "#2556c7";

function CreateTagForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [noColor, setNoColor] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const create = useMutation(trpc.tags.create.mutationOptions());
  useFocusFirstInvalid(form, create.error);
  const fault = create.isError ? apiFault(create.error) : null;
  const nameError = faultAt(fault, "name");
  const colorError = faultAt(fault, "color");
  const general = fault && !nameError && !colorError ? fault.message : null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = event.currentTarget;
    const data = new FormData(target);
    const name = String(data.get("name") ?? "");
    setCreated(null);
    create.mutate(
      { name, color: noColor ? null : String(data.get("color") ?? DEFAULT_COLOR) },
      {
        onSuccess: async (tag) => {
          await queryClient.invalidateQueries(trpc.tags.list.queryFilter());
          target.reset();
          setNoColor(false);
          setCreated(`Tag “${tag.name}” created.`);
        },
      },
    );
  }

  return (
    <form ref={form} className="inline-form" aria-label="New tag" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor="tag-name">Name</label>
        <input
          id="tag-name"
          name="name"
          required
          maxLength={64}
          placeholder="e.g. VIP"
          autoComplete="off"
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? "tag-name-error" : undefined}
        />
        <FieldError id="tag-name-error" message={nameError} />
      </div>
      <div className="field">
        <label htmlFor="tag-color">Color</label>
        <div className="color-row">
          <input
            id="tag-color"
            name="color"
            type="color"
            defaultValue={DEFAULT_COLOR}
            disabled={noColor}
            aria-invalid={colorError ? true : undefined}
            aria-describedby={colorError ? "tag-color-error" : undefined}
          />
          <label className="choice">
            <input type="checkbox" checked={noColor} onChange={(event) => setNoColor(event.target.checked)} />
            No color
          </label>
        </div>
        <FieldError id="tag-color-error" message={colorError} />
      </div>
      <CreateFormFooter label="Create tag" pending={create.isPending} error={general} done={created} />
    </form>
  );
}
