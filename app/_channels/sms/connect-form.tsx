import { DEFAULT_TWILIO_API_BASE_URL } from "@/server/providers/twilio-callback.ts";
import { Code, given, rate, type ChannelForm } from "../connect-form.tsx";

export const smsForm: ChannelForm<"sms"> = {
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
    {
      name: "api_base_url",
      label: "API base URL",
      type: "url",
      placeholder: DEFAULT_TWILIO_API_BASE_URL,
      hint: "Twilio's API by default.",
    },
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
};
