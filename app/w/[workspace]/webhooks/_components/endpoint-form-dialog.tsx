"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { FieldError } from "@/app/_components/form-feedback.tsx";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useFocusFirstInvalid } from "@/app/_components/use-focus-invalid.ts";
import { EVENT_DESCRIPTIONS, EVENT_NAMES, type EventName } from "@/server/events/event-names.ts";
import type { Endpoint } from "./webhook-labels.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

/** An endpoint just added; its secret is in this answer only (D30). */
export type Added = { url: string; secret: string };

type Values = { url: string; description: string; events: EventName[] };

const CONTROLS = ["url", "description", "events"] as const;

function readForm(form: HTMLFormElement): { values: Values; errors: Record<string, string> } {
  const data = new FormData(form);
  const url = String(data.get("url") ?? "").trim();
  const description = String(data.get("description") ?? "").trim();
  const events = data
    .getAll("events")
    .map(String)
    .filter((name): name is EventName => (EVENT_NAMES as readonly string[]).includes(name));
  const errors: Record<string, string> = {};
  if (!url) errors.url = "The URL is required.";
  return { values: { url, description, events }, errors };
}

type Props =
  | { endpoint: null; onClose: () => void; onAdded: (added: Added) => void; onSaved?: never }
  | { endpoint: Endpoint; onClose: () => void; onSaved: () => void; onAdded?: never };

/**
 * Adds an endpoint (`endpoint` null) or edits one's URL, description and events (admins).
 * Errors are shown at the control the server's `param` names; none checked means every event.
 */
export function EndpointFormDialog({ endpoint, onClose, onAdded, onSaved }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const prefix = useId();
  const form = useRef<HTMLFormElement>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  // gcTime 0: the secret leaves the mutation cache as soon as this dialog unmounts.
  const create = useMutation(trpc.webhooks.create.mutationOptions({ gcTime: 0 }));
  const update = useMutation(trpc.webhooks.update.mutationOptions());
  const mutation = endpoint ? update : create;
  const fault = mutation.isError ? apiFault(mutation.error) : null;
  const errorAt = (param: string): string | null => local[param] ?? faultAt(fault, param);
  const general = fault && !CONTROLS.some((param) => faultAt(fault, param)) ? fault.message : null;
  useFocusFirstInvalid(form, mutation.error ?? (Object.keys(local).length ? local : null));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { values, errors } = readForm(event.currentTarget);
    setLocal(errors);
    if (Object.keys(errors).length > 0) return;
    const refresh = () => queryClient.invalidateQueries(trpc.webhooks.list.queryFilter());
    if (endpoint) {
      update.mutate(
        { endpoint_id: endpoint.id, url: values.url, description: values.description, events: values.events },
        {
          onSuccess: async () => {
            await refresh();
            onSaved?.();
          },
        },
      );
    } else {
      create.mutate(
        { url: values.url, events: values.events, ...(values.description ? { description: values.description } : {}) },
        {
          onSuccess: async (answer) => {
            await refresh();
            onAdded?.({ url: answer.endpoint.url, secret: answer.secret });
          },
        },
      );
    }
  }

  const a11y = (param: string) => {
    const id = `${prefix}-${param}`;
    const error = errorAt(param);
    return { id, error, invalid: error ? true : undefined, describedBy: error ? `${id}-error` : undefined };
  };
  const url = a11y("url");
  const description = a11y("description");
  const events = a11y("events");
  const pending = mutation.isPending || mutation.isSuccess;
  return (
    <Modal title={endpoint ? "Edit endpoint" : "Add endpoint"} onClose={onClose}>
      <form ref={form} className="stack" onSubmit={onSubmit} noValidate aria-label={endpoint ? "Edit endpoint" : "Add endpoint"}>
        {!endpoint && (
          <p className="muted">The service POSTs each event to this URL, signed with a secret that is shown once, after adding.</p>
        )}
        <div className="field">
          <label htmlFor={url.id}>URL</label>
          <input
            id={url.id}
            name="url"
            type="url"
            inputMode="url"
            required
            maxLength={2048}
            defaultValue={endpoint?.url ?? ""}
            placeholder="https://example.com/webhooks/svc"
            autoComplete="off"
            spellCheck={false}
            autoFocus
            aria-invalid={url.invalid}
            aria-describedby={[url.describedBy, `${url.id}-hint`].filter(Boolean).join(" ")}
          />
          <span id={`${url.id}-hint`} className="muted hint">
            An https URL on a public address. Redirects are not followed.
          </span>
          <FieldError id={`${url.id}-error`} message={url.error} />
        </div>
        <div className="field">
          <label htmlFor={description.id}>
            Description<span className="muted"> (optional)</span>
          </label>
          <input
            id={description.id}
            name="description"
            maxLength={200}
            defaultValue={endpoint?.description ?? ""}
            placeholder="e.g. Order system"
            autoComplete="off"
            aria-invalid={description.invalid}
            aria-describedby={description.describedBy}
          />
          <FieldError id={`${description.id}-error`} message={description.error} />
        </div>
        <fieldset aria-invalid={events.invalid} aria-describedby={[events.describedBy, `${events.id}-hint`].filter(Boolean).join(" ")}>
          <legend>Events</legend>
          <div className="scope-grid">
            {EVENT_NAMES.map((name) => (
              <label key={name} className="choice">
                <input type="checkbox" name="events" value={name} defaultChecked={endpoint?.events.includes(name) ?? false} />
                <code>{name}</code>
                <span className="muted" title={EVENT_DESCRIPTIONS[name].description}>
                  {EVENT_DESCRIPTIONS[name].title}
                </span>
              </label>
            ))}
          </div>
          <p id={`${events.id}-hint`} className="muted hint">
            None checked: every event, including event names added later.
          </p>
          <FieldError id={`${events.id}-error`} message={events.error} />
        </fieldset>
        {general && (
          <p role="alert" className="error">
            {general}
          </p>
        )}
        <DialogFooter onCancel={onClose}>
          <button type="submit" className="button primary" disabled={pending}>
            {endpoint ? (pending ? "Saving…" : "Save changes") : pending ? "Adding…" : "Add endpoint"}
          </button>
        </DialogFooter>
      </form>
    </Modal>
  );
}
