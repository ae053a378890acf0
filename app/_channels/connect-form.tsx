import type { HTMLInputTypeAttribute, ReactNode } from "react";
import { DEFAULT_RATE_PER_SECOND, type Channel, type ConnectChannelRequest } from "@/server/channels/channel-schemas.ts";

/** A channel type, as the connected channel names it (its own, so this file and the channel list do not import each other). */
type ChannelType = Channel["type"];

// What a channel's connect form, card and test dialog are made of (app/_channels/<type>/connect-form.tsx).

export type FieldSpec = {
  /** The request's parameter, which the server's errors name. */
  name: string;
  label: string;
  type?: HTMLInputTypeAttribute;
  required?: boolean;
  hint?: string;
  placeholder?: string;
  inputMode?: "numeric" | "url" | "email" | "tel";
};

/** The connect form's trimmed values by parameter; a field left empty is absent. */
export type FormValues = Partial<Record<string, string>>;

export type ChannelForm<T extends ChannelType> = {
  /** The channels page's button, and the dialog's submit button. */
  connect: string;
  /** The connect dialog's title. */
  title: string;
  /** A line above the dialog's fields. */
  note?: string;
  /** The connect form's controls, in the order of the request schema (server/channels/channel-schemas.ts). */
  fields: FieldSpec[];
  request(common: { name?: string; rate_per_second?: number }, values: FormValues): Extract<ConnectChannelRequest, { type: T }>;
  /** The channel card's rows of the type's settings. */
  details(settings: Channel["settings"]): ReactNode;
  /** Under the callback URL: what to do with it at the provider. */
  callbackHint: string;
  /** The "send a test message" dialog: what goes, to what address, and whether approved templates can be chosen. */
  test: { what: string; note?: string; to: { label: string; type: "tel" | "email"; placeholder: string }; templates?: true };
  /** A panel under the card's details (templates, the sending domain). */
  panel?: (props: { channel: Channel; canManage: boolean }) => ReactNode;
};

const RATE_HINT = "Provider calls per second at most, 1 to 1000.";

export const rate = (type: ChannelType): FieldSpec => ({
  name: "rate_per_second",
  label: "Rate",
  type: "number",
  placeholder: String(DEFAULT_RATE_PER_SECOND[type]),
  hint: RATE_HINT,
});

/** `{ name: value }` when the field was filled, else nothing: optional parameters are left out. */
export const given = (values: FormValues, ...names: string[]) =>
  Object.fromEntries(names.flatMap((name) => (values[name] ? [[name, values[name]]] : [])));

export const Code = ({ value, empty }: { value: string | undefined; empty?: string }) =>
  value ? <code>{value}</code> : <span className="muted">{empty ?? "None"}</span>;
