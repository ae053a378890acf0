import { ChannelDomain } from "@/app/w/[workspace]/channels/_components/channel-domain.tsx";
import { Code, given, rate, type ChannelForm } from "../connect-form.tsx";

export const emailForm: ChannelForm<"email"> = {
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
};
