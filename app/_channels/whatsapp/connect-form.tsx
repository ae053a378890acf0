import { DEFAULT_GRAPH_API_BASE_URL } from "@/server/providers/provider.ts";
import { ChannelTemplates } from "@/app/w/[workspace]/channels/_components/channel-templates.tsx";
import { given, rate, type ChannelForm } from "../connect-form.tsx";

export const whatsappForm: ChannelForm<"whatsapp"> = {
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
};
