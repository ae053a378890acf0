"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { FieldError } from "@/app/_components/form-feedback.tsx";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useFocusFirstInvalid } from "@/app/_components/use-focus-invalid.ts";
import type { Channel, ConnectChannelRequest } from "@/server/channels/channel-schemas.ts";
import { CHANNEL_FORMS, type FieldSpec, type FormValues } from "./channel-forms.tsx";
import { TYPE_LABEL, type ChannelType } from "./channel-labels.ts";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

/** A channel just connected; an e-mail channel's events token is in this answer only. */
export type Connected = { channel: Channel; eventsToken: string | null };

type Props = { type: ChannelType; onClose: () => void; onConnected: (connected: Connected) => void };

/** Connects a channel of `type` (admins), with the form of CHANNEL_FORMS. Errors are shown at the control the server's `param` names. */
export function ConnectChannelDialog({ type, onClose, onConnected }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const prefix = useId();
  const form = useRef<HTMLFormElement>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  // gcTime 0: the events token leaves the mutation cache as soon as this dialog unmounts.
  const connect = useMutation(trpc.channels.connect.mutationOptions({ gcTime: 0 }));
  const spec = CHANNEL_FORMS[type];
  const fields = spec.fields;
  const fault = connect.isError ? apiFault(connect.error) : null;
  const errorAt = (param: string): string | null => local[param] ?? faultAt(fault, param);
  const general = fault && !fields.some((f) => faultAt(fault, f.name)) ? fault.message : null;
  useFocusFirstInvalid(form, connect.error ?? (Object.keys(local).length ? local : null));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = event.currentTarget;
    const { values, errors } = readForm(target, fields);
    setLocal(errors);
    if (Object.keys(errors).length > 0) return;
    connect.mutate(request(type, values), {
      onSuccess: async (answer) => {
        await queryClient.invalidateQueries(trpc.channels.list.queryFilter());
        onConnected({ channel: answer.channel, eventsToken: answer.events_token ?? null });
      },
    });
  }

  return (
    <Modal title={spec.title} onClose={onClose}>
      <form ref={form} className="stack" onSubmit={onSubmit} noValidate aria-label={`Connect ${TYPE_LABEL[type]}`}>
        {spec.note && <p className="muted">{spec.note}</p>}
        {fields.map((field, index) => {
          const id = `${prefix}-${field.name}`;
          const error = errorAt(field.name);
          const hintId = field.hint ? `${id}-hint` : undefined;
          const describedBy = [error ? `${id}-error` : null, hintId].filter(Boolean).join(" ") || undefined;
          return (
            <div className="field" key={field.name}>
              <label htmlFor={id}>
                {field.label}
                {field.required ? "" : <span className="muted"> (optional)</span>}
              </label>
              <input
                id={id}
                name={field.name}
                type={field.type ?? "text"}
                inputMode={field.inputMode}
                placeholder={field.placeholder}
                min={field.type === "number" ? 1 : undefined}
                max={field.type === "number" ? 1000 : undefined}
                step={field.type === "number" ? 1 : undefined}
                maxLength={field.type === "number" ? undefined : 4096}
                required={field.required}
                autoComplete={field.type === "password" ? "new-password" : "off"}
                spellCheck={false}
                autoFocus={index === 1}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy}
              />
              {field.hint && (
                <span id={hintId} className="muted hint">
                  {field.hint}
                </span>
              )}
              <FieldError id={`${id}-error`} message={error} />
            </div>
          );
        })}
        {general && (
          <p role="alert" className="error">
            {general}
          </p>
        )}
        <DialogFooter onCancel={onClose}>
          <button type="submit" className="button primary" disabled={connect.isPending}>
            {connect.isPending ? "Connecting…" : spec.connect}
          </button>
        </DialogFooter>
      </form>
    </Modal>
  );
}

/** The form's trimmed values by parameter, and what is wrong before asking the server. */
function readForm(form: HTMLFormElement, fields: FieldSpec[]): { values: FormValues; errors: Record<string, string> } {
  const values: FormValues = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const input = form.elements.namedItem(field.name);
    if (!(input instanceof HTMLInputElement)) continue;
    // A number input holding something that is not a number reads as "": say so.
    if (input.validity.badInput) errors[field.name] = `${field.label} must be a whole number from 1 to 1000.`;
    const value = input.value.trim();
    if (field.required && !value) errors[field.name] = `${field.label} is required.`;
    if (value) values[field.name] = value;
  }
  return { values, errors };
}

function request(type: ChannelType, values: FormValues): ConnectChannelRequest {
  const common = {
    ...(values.name ? { name: values.name } : {}),
    ...(values.rate_per_second ? { rate_per_second: Number(values.rate_per_second) } : {}),
  };
  return CHANNEL_FORMS[type].request(common, values);
}
