import type { HTMLInputTypeAttribute, ReactNode } from "react";
import { DEFAULT_RATE_PER_SECOND, type Channel, type ConnectChannelRequest } from "@/server/channels/channel-schemas.ts";
import { DEFAULT_GRAPH_API_BASE_URL } from "@/server/providers/provider.ts";
import { ChannelDomain } from "./channel-domain.tsx";
import { ChannelTemplates } from "./channel-templates.tsx";
import type { ChannelType } from "./channel-labels.ts";

// Issue 49: what the dashboard shows of each channel type, in one map keyed by type that tsc
// checks for completeness (a type missing here fails to compile), so the connect dialog and
// the channel card hold no branch on a channel's name.

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

type ChannelForm<T extends ChannelType> = {
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

const rate = (type: ChannelType): FieldSpec => ({
  name: "rate_per_second",
  label: "Rate",
  type: "number",
  placeholder: String(DEFAULT_RATE_PER_SECOND[type]),
  hint: RATE_HINT,
});

/** `{ name: value }` when the field was filled, else nothing: optional parameters are left out. */
const given = (values: FormValues, ...names: string[]) =>
  Object.fromEntries(names.flatMap((name) => (values[name] ? [[name, values[name]]] : [])));

const Code = ({ value, empty }: { value: string | undefined; empty?: string }) =>
  value ? <code>{value}</code> : <span className="muted">{empty ?? "None"}</span>;

export const CHANNEL_FORMS: { [T in ChannelType]: ChannelForm<T> } = {
  whatsapp: {
    connect: "Connect WhatsApp",
    title: "Connect a WhatsApp number",
    fields: [
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
      rate("whatsapp"),
    ],
    request: (common, values) => ({
      type: "whatsapp",
      ...common,
      phone_number_id: values.phone_number_id ?? "",
      access_token: values.access_token ?? "",
      app_secret: values.app_secret ?? "",
      verify_token: values.verify_token ?? "",
      ...given(values, "waba_id", "api_base_url"),
    }),
    details: (settings) => (
      <>
        <dt>API base URL</dt>
        <dd>
          <code>{settings.api_base_url ?? ""}</code>
        </dd>
      </>
    ),
    test: {
      what: "WhatsApp message",
      note: "Outside the recipient's 24-hour window WhatsApp refuses free text: send an approved template instead.",
      to: { label: "Phone number", type: "tel", placeholder: "+55 11 98765-4321" },
      templates: true,
    },
    callbackHint: "In Meta's app, set this callback URL with the channel's verify token and subscribe to the messages field.",
    panel: ({ channel, canManage }) => <ChannelTemplates channel={channel} canManage={canManage} />,
  },
  email: {
    connect: "Connect e-mail",
    title: "Connect an e-mail relay",
    note: "An events token for your relay's delivery and bounce reports is shown once, after connecting.",
    fields: [
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
      rate("email"),
    ],
    request: (common, values) => ({
      type: "email",
      ...common,
      smtp_url: values.smtp_url ?? "",
      from: values.from ?? "",
      ...given(values, "tracking_base_url", "dkim_selector"),
    }),
    details: (settings) => (
      <>
        <dt>SMTP server</dt>
        <dd>
          <code>{settings.smtp_server ?? ""}</code>
        </dd>
        <dt>Tracking links</dt>
        <dd>
          <Code value={settings.tracking_base_url} empty="This service's address" />
        </dd>
        <dt>DKIM</dt>
        <dd>{settings.dkim_selector ? <code>selector {settings.dkim_selector}</code> : <span className="muted">Not signed</span>}</dd>
      </>
    ),
    test: { what: "e-mail", to: { label: "E-mail address", type: "email", placeholder: "you@example.com" } },
    callbackHint: "Delivery and bounce reports of your relay are posted here, with the events token as a bearer token.",
    panel: ({ channel }) => <ChannelDomain channel={channel} />,
  },
  sms: {
    connect: "Connect SMS",
    title: "Connect a Twilio account for SMS",
    note: "Give the sending number or a Messaging Service SID, not both. Delivery reports come back by themselves; the callback URL shown after connecting also takes the replies your number receives.",
    fields: [
      { name: "name", label: "Name", hint: "How the dashboard shows the channel.", placeholder: "e.g. Codes" },
      {
        name: "account_sid",
        label: "Account SID",
        required: true,
        placeholder: "AC…",
        hint: "On the dashboard of Twilio's console: AC followed by 32 characters.",
      },
      {
        name: "auth_token",
        label: "Auth token",
        type: "password",
        required: true,
        hint: "Beside the Account SID in Twilio's console; it also verifies the signature of Twilio's callbacks.",
      },
      {
        name: "from",
        label: "From number",
        type: "tel",
        inputMode: "tel",
        placeholder: "+15017122661",
        hint: "A number of the account, in international format.",
      },
      {
        name: "messaging_service_sid",
        label: "Messaging Service SID",
        placeholder: "MG…",
        hint: "Instead of a From number: Twilio picks the sender from the service's pool.",
      },
      { name: "api_base_url", label: "API base URL", type: "url", placeholder: "https://api.twilio.com", hint: "Twilio's API by default." },
      rate("sms"),
    ],
    request: (common, values) => ({
      type: "sms",
      ...common,
      account_sid: values.account_sid ?? "",
      auth_token: values.auth_token ?? "",
      ...given(values, "from", "messaging_service_sid", "api_base_url"),
    }),
    details: (settings) => (
      <>
        <dt>Sender</dt>
        <dd>
          {settings.messaging_service_sid ? (
            <>
              Messaging Service <code>{settings.messaging_service_sid}</code>
            </>
          ) : (
            <Code value={settings.from} />
          )}
        </dd>
        <dt>API base URL</dt>
        <dd>
          <Code value={settings.api_base_url} empty="Twilio's API" />
        </dd>
      </>
    ),
    test: { what: "SMS", to: { label: "Phone number", type: "tel", placeholder: "+1 555 010 6001" } },
    callbackHint:
      "Delivery reports come here by themselves. In Twilio's console, set this URL (HTTP POST) as the incoming-message webhook of the number or Messaging Service, so replies and STOP/START reach this service.",
  },
};
