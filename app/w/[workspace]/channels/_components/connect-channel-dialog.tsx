"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent, type HTMLInputTypeAttribute } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { FieldError } from "@/app/_components/form-feedback.tsx";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useFocusFirstInvalid } from "@/app/_components/use-focus-invalid.ts";
import { DEFAULT_RATE_PER_SECOND, type Channel, type ConnectChannelRequest } from "@/server/channels/channel-schemas.ts";
import { DEFAULT_GRAPH_API_BASE_URL } from "@/server/providers/provider.ts";
import { TYPE_LABEL, type ChannelType } from "./channel-labels.ts";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

/** A channel just connected; an e-mail channel's events token is in this answer only. */
export type Connected = { channel: Channel; eventsToken: string | null };

type FieldSpec = {
  /** The request's parameter, which the server's errors name. */
  name: string;
  label: string;
  type?: HTMLInputTypeAttribute;
  required?: boolean;
  hint?: string;
  placeholder?: string;
  inputMode?: "numeric" | "url" | "email";
};

const RATE_HINT = "Provider calls per second at most, 1 to 1000.";

/** The connect form's controls, in the order of the request schemas (server/channels/channel-schemas.ts). */
const FIELDS: Record<ChannelType, FieldSpec[]> = {
  whatsapp: [
    { name: "name", label: "Name", hint: "How the dashboard shows the channel.", placeholder: "e.g. Support line" },
    {
      name: "phone_number_id",
      label: "Phone number ID",
      required: true,
      inputMode: "numeric",
      hint: "The number's Phone number ID in Meta's WhatsApp Manager (digits only, not the phone number).",
    },
    {
      name: "waba_id",
      label: "WhatsApp Business account ID",
      inputMode: "numeric",
      hint: "Digits only, from Meta's WhatsApp Manager: the channel's message templates are synced from this account.",
    },
    { name: "access_token", label: "Access token", type: "password", required: true, hint: "A permanent system user token." },
    { name: "app_secret", label: "App secret", type: "password", required: true, hint: "Verifies the signature of Meta's webhooks." },
    {
      name: "verify_token",
      label: "Verify token",
      required: true,
      hint: "Any text you choose; enter the same in the webhook settings of Meta's app.",
    },
    {
      name: "api_base_url",
      label: "API base URL",
      type: "url",
      placeholder: DEFAULT_GRAPH_API_BASE_URL,
      hint: "Meta's Graph API by default.",
    },
    { name: "rate_per_second", label: "Rate", type: "number", placeholder: String(DEFAULT_RATE_PER_SECOND.whatsapp), hint: RATE_HINT },
  ],
  email: [
    { name: "name", label: "Name", hint: "How the dashboard shows the channel.", placeholder: "e.g. Newsletter relay" },
    {
      name: "smtp_url",
      label: "SMTP URL",
      type: "password",
      required: true,
      placeholder: "smtps://user:password@smtp.example.com:465",
      hint: "smtps:// for TLS (port 465) or smtp:// (port 587, STARTTLS when offered); the user and password go in the URL.",
    },
    {
      name: "from",
      label: "From address",
      type: "email",
      required: true,
      inputMode: "email",
      placeholder: "news@shop.example.com",
    },
    {
      name: "tracking_base_url",
      label: "Tracking base URL",
      type: "url",
      placeholder: "https://svc.example.com",
      hint: "Origin of the open-tracking and unsubscribe links (https in production). This service's address by default.",
    },
    {
      name: "dkim_selector",
      label: "DKIM selector",
      placeholder: "e.g. svc",
      hint: "Signs every mail with DKIM: a key is made for this channel, and the channel lists the DNS record to publish.",
    },
    { name: "rate_per_second", label: "Rate", type: "number", placeholder: String(DEFAULT_RATE_PER_SECOND.email), hint: RATE_HINT },
  ],
  sms: [
    { name: "name", label: "Name", hint: "How the dashboard shows the channel.", placeholder: "e.g. Codes" },
    { name: "account_sid", label: "Account SID", required: true, placeholder: "AC…", hint: "From Twilio's console." },
    {
      name: "auth_token",
      label: "Auth token",
      type: "password",
      required: true,
      hint: "Also verifies the signature of Twilio's callbacks.",
    },
    {
      name: "from",
      label: "From number",
      placeholder: "+15017122661",
      hint: "The account's sending number; or give a Messaging Service SID.",
    },
    { name: "messaging_service_sid", label: "Messaging Service SID", placeholder: "MG…", hint: "Instead of a From number." },
    { name: "api_base_url", label: "API base URL", type: "url", placeholder: "https://api.twilio.com", hint: "Twilio's API by default." },
    { name: "rate_per_second", label: "Rate", type: "number", placeholder: String(DEFAULT_RATE_PER_SECOND.sms), hint: RATE_HINT },
  ],
};

type Props = { type: ChannelType; onClose: () => void; onConnected: (connected: Connected) => void };

/** Connects a WhatsApp number or an SMTP relay (admins). Errors are shown at the control the server's `param` names. */
export function ConnectChannelDialog({ type, onClose, onConnected }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const prefix = useId();
  const form = useRef<HTMLFormElement>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  // gcTime 0: the events token leaves the mutation cache as soon as this dialog unmounts.
  const connect = useMutation(trpc.channels.connect.mutationOptions({ gcTime: 0 }));
  const fields = FIELDS[type];
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
    <Modal title={`Connect ${type === "whatsapp" ? "a WhatsApp number" : "an e-mail relay"}`} onClose={onClose}>
      <form ref={form} className="stack" onSubmit={onSubmit} noValidate aria-label={`Connect ${TYPE_LABEL[type]}`}>
        {type === "email" && (
          <p className="muted">An events token for your relay&apos;s delivery and bounce reports is shown once, after connecting.</p>
        )}
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
            {connect.isPending ? "Connecting…" : `Connect ${TYPE_LABEL[type]}`}
          </button>
        </DialogFooter>
      </form>
    </Modal>
  );
}

/** The form's trimmed values by parameter, and what is wrong before asking the server. */
function readForm(form: HTMLFormElement, fields: FieldSpec[]): { values: Record<string, string>; errors: Record<string, string> } {
  const values: Record<string, string> = {};
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

function request(type: ChannelType, values: Record<string, string>): ConnectChannelRequest {
  const common = {
    ...(values.name ? { name: values.name } : {}),
    ...(values.rate_per_second ? { rate_per_second: Number(values.rate_per_second) } : {}),
  };
  if (type === "whatsapp") {
    return {
      type,
      ...common,
      phone_number_id: values.phone_number_id ?? "",
      access_token: values.access_token ?? "",
      app_secret: values.app_secret ?? "",
      verify_token: values.verify_token ?? "",
      ...(values.waba_id ? { waba_id: values.waba_id } : {}),
      ...(values.api_base_url ? { api_base_url: values.api_base_url } : {}),
    };
  }
  if (type === "sms") {
    return {
      type,
      ...common,
      account_sid: values.account_sid ?? "",
      auth_token: values.auth_token ?? "",
      ...(values.from ? { from: values.from } : {}),
      ...(values.messaging_service_sid ? { messaging_service_sid: values.messaging_service_sid } : {}),
      ...(values.api_base_url ? { api_base_url: values.api_base_url } : {}),
    };
  }
  return {
    type,
    ...common,
    smtp_url: values.smtp_url ?? "",
    from: values.from ?? "",
    ...(values.tracking_base_url ? { tracking_base_url: values.tracking_base_url } : {}),
    ...(values.dkim_selector ? { dkim_selector: values.dkim_selector } : {}),
  };
}
