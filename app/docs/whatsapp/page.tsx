import type { Metadata } from "next";
import type { ReactNode } from "react";
import { META_ERROR_CODES } from "@/server/providers/meta-error-codes.ts";

export const metadata: Metadata = {
  title: "WhatsApp templates and the 24-hour window",
  description:
    "How svc sends WhatsApp messages as Meta allows: message templates, the 24-hour window, inbound messages and Meta's error codes.",
};

const CONNECT = `# in the service's directory (where npm start runs); elsewhere npx offers an unrelated package named svc
npx svc channel connect --workspace acme --type whatsapp \\
  --phone-number-id 106540352242922 --waba-id 102290129340398 \\
  --access-token "$META_TOKEN" --app-secret "$META_APP_SECRET" --verify-token "$VERIFY_TOKEN"

# later, on demand (it also runs every 15 minutes):
npx svc channel sync-templates --workspace acme --channel ch_… --json`;

const LIST = `curl https://svc.example.com/api/v1/whatsapp/templates?status=approved \\
  -H "Authorization: Bearer $SVC_API_KEY"

[{"id":"tpl_…","channel_id":"ch_…","name":"order_shipped","language":"en_US","category":"utility",
  "status":"approved","parameters":["1","2"],"body":"Hi {{1}}, your order shipped with {{2}}.",
  "updated_at":"2026-11-24T09:00:00.000Z"}]`;

const CLOSED = `curl https://svc.example.com/api/v1/messages -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"channel":"whatsapp","to":{"phone":"+5511987654321"},"whatsapp":{"body":"Your order shipped"}}'

HTTP/1.1 409 Conflict
{"error":{"type":"conflict","code":"whatsapp_window_closed","param":"whatsapp.body",
  "message":"The contact's 24-hour WhatsApp window never opened: the contact has not written to you on WhatsApp. Outside the window only a template can be sent: give whatsapp.template.", …}}`;

const TEMPLATE = `curl https://svc.example.com/api/v1/messages -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"channel":"whatsapp","to":{"phone":"+5511987654321"},
       "whatsapp":{"template":{"name":"order_shipped","language":"en_US",
                               "parameters":{"1":"{{name}}","2":"{{carrier}}"}}},
       "variables":{"carrier":"DHL"}}'

HTTP/1.1 202 Accepted
{"id":"msg_…","status":"queued","direction":"outbound","error_code":null, …}`;

const CLOUD = `{"messaging_product":"whatsapp","recipient_type":"individual","to":"5511987654321","type":"template",
 "template":{"name":"order_shipped","language":{"code":"en_US"},
   "components":[{"type":"body","parameters":[{"type":"text","text":"Ana"},{"type":"text","text":"DHL"}]}]}}`;

const FLOW_STEP = `{ "type": "send", "channel": "whatsapp",
  "whatsapp": {
    "body": "Hi {{name}}, did your order arrive?",
    "template": { "name": "order_shipped", "language": "en_US", "parameters": { "1": "{{name}}", "2": "{{carrier}}" } },
    "fallback": "template" } }`;

const INBOUND = `{"id":"evt_…","event":"mensagem.recebida","type":"mensagem.recebida","mode":"live","namespace":"acme",
 "data":{"id":"msg_…","channelType":"whatsapp","contact":"ct_…","direction":"inbound","text":"Where is my order?","media_type":null}}`;

const READ = `curl -X POST https://svc.example.com/api/v1/messages/msg_…/read -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" -d '{"typing":true}'

HTTP/1.1 200 OK
{"id":"msg_…","read_at":"2026-11-24T09:00:03.120Z"}`;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

export default function WhatsAppGuidePage() {
  return (
    <main className="docs-page">
      <h1>WhatsApp templates and the 24-hour window</h1>
      <p className="docs-lead">
        Meta lets a business send free-form WhatsApp messages only within 24 hours of the contact&apos;s last message to it. Outside that
        window only an approved <em>message template</em> goes out. svc knows each contact&apos;s window and tells you before sending.
      </p>

      <Section id="templates" title="Templates">
        <p>
          Templates belong to your WhatsApp Business account. Connect the channel with the account id (<code>--waba-id</code>, or the
          dashboard&apos;s connect dialog) and svc keeps a copy of its templates: synced when the channel is connected, every 15 minutes,
          when you ask (the dashboard&apos;s <em>Sync templates</em> button or the command below) and whenever Meta reports a
          template&apos;s status change.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {CONNECT}
        </pre>
        <p>
          <code>GET /whatsapp/templates</code> (scope <code>messages:read</code>; filters <code>channel_id</code> and <code>status</code>)
          lists them. <code>parameters</code> are the names to fill: named parameters keep their names, positional ones are <code>1</code>,{" "}
          <code>2</code>, … (a positional header parameter is <code>header_1</code>).
        </p>
        <pre className="docs-code" tabIndex={0}>
          {LIST}
        </pre>
      </Section>

      <Section id="window" title="The 24-hour window">
        <p>
          Every contact has <code>whatsapp_window_expires_at</code>: the time of its latest WhatsApp message to you plus 24 hours, or null
          when it never wrote. A live free-form message (<code>whatsapp.body</code> or <code>whatsapp.media_url</code>) to a contact whose
          window is closed is refused before anything is stored, with <code>409</code> and code <code>whatsapp_window_closed</code>:
        </p>
        <pre className="docs-code" tabIndex={0}>
          {CLOSED}
        </pre>
        <p>
          With a test key every window is open, except for the reserved number <code>+15550100004</code>, whose window is always closed: use
          it to try your handling of the refusal.
        </p>
      </Section>

      <Section id="example" title="Worked example: an order that shipped">
        <ol>
          <li>The contact last wrote three days ago: the free-form message above is refused.</li>
          <li>
            Send the approved template instead. Each parameter takes a text that may hold <code>{"{{placeholders}}"}</code>, filled from{" "}
            <code>variables</code>, then the contact&apos;s custom fields, then its name, phone and e-mail:
          </li>
        </ol>
        <pre className="docs-code" tabIndex={0}>
          {TEMPLATE}
        </pre>
        <p>Meta receives the template with its components filled:</p>
        <pre className="docs-code" tabIndex={0}>
          {CLOUD}
        </pre>
        <p>
          A template that does not exist on the channel in that language is <code>400 template_not_found</code>; one that is not approved is{" "}
          <code>409 template_not_approved</code>; a parameter missing or unknown is <code>400</code> with{" "}
          <code>param = whatsapp.template.parameters.&lt;name&gt;</code>. Giving a template together with <code>body</code> or{" "}
          <code>media_url</code> is <code>400</code> on <code>whatsapp.template</code>.
        </p>
        <p>
          When the contact answers, the window opens for 24 hours and free-form messages are accepted again. The answer itself is delivered
          to your webhooks as <code>mensagem.recebida</code>, and kept as a Message with <code>direction: &quot;inbound&quot;</code> and
          status <code>received</code>. Buttons and list replies carry the chosen title as <code>text</code>; a stop word (STOP, PARAR,
          SAIR, CANCELAR, UNSUBSCRIBE) still opts the contact out.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {INBOUND}
        </pre>
      </Section>

      <Section id="user-ids" title="Contacts without a phone number: WhatsApp user ids">
        <p>
          WhatsApp identifies every user by a user id such as <code>US.13491208655302741918</code> (two letters, a dot, then up to 128
          letters and digits), and leaves the phone number out of a message unless you and the user were in touch lately. A contact keeps
          both: <code>whatsapp_user_id</code>, unique in the workspace like the phone, and <code>whatsapp_username</code>, null until
          WhatsApp tells it.
        </p>
        <ul>
          <li>
            A message from someone who is not a contact yet creates one, with or without a phone. A message is matched to a contact by its
            user id first, then by its phone; a contact found by its phone learns the user id and username the message carries.
          </li>
          <li>
            <code>GET /contacts?whatsapp_user_id=US.13491208655302741918</code> finds the contact; <code>POST /contacts</code> takes{" "}
            <code>whatsapp_user_id</code> and <code>whatsapp_username</code>. A malformed id is <code>400 invalid_whatsapp_user_id</code>;
            one another contact has is <code>409 whatsapp_user_id_taken</code>.
          </li>
          <li>
            Send to <code>{`{"whatsapp_user_id": "US.13491208655302741918"}`}</code> as you would to a phone, or to the contact&apos;s id. A
            contact with a phone is messaged at its phone; one without, at its user id. A contact with neither is{" "}
            <code>400 recipient_missing_address</code> on <code>to.phone</code>. Flows&apos; send steps follow the same rule.
          </li>
          <li>
            When a user&apos;s id changes, WhatsApp says so and the contact moves to the new id (a <code>contato.atualizado</code> event).
          </li>
          <li>
            Some messages, such as certain authentication templates, cannot be sent to a user id: they fail with <code>error_code</code>{" "}
            <code>whatsapp_131062</code>. Such a contact needs a phone number for them.
          </li>
        </ul>
      </Section>

      <Section id="flows" title="Templates in flows">
        <p>
          A flow&apos;s <code>send</code> step takes the same <code>whatsapp.template</code> object. With both free-form content and a
          template, add <code>&quot;fallback&quot;: &quot;template&quot;</code>: when the step runs, the free-form content goes while the
          contact&apos;s window is open and the template once it has closed, which suits steps that come after a long wait.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {FLOW_STEP}
        </pre>
        <ul>
          <li>
            A step&apos;s template is checked when the flow is saved, as a send is: the errors above, with <code>param</code> pointing into
            the step, such as <code>steps.2.whatsapp.template.name</code>. The template is looked up on the step&apos;s{" "}
            <code>channel_id</code>, or on the workspace&apos;s first WhatsApp channel.
          </li>
          <li>
            A step with only free-form content whose contact&apos;s window is closed sends nothing: the run goes on, and its history records
            the step as skipped with code <code>whatsapp_window_closed</code>. So does a step whose template is no longer approved when it
            runs (code <code>template_not_approved</code>).
          </li>
          <li>
            <code>fallback</code> needs both the free-form content and the template; a template with free-form content and no{" "}
            <code>fallback</code> is refused.
          </li>
        </ul>
      </Section>

      <Section id="read" title="Read receipts and the typing indicator">
        <p>
          <code>POST /messages/{"{id}"}/read</code> (scope <code>messages:write</code>) marks a message the contact sent you as read: they
          see the blue ticks. With <code>{`{"typing": true}`}</code> they also see that you are typing, until you reply or for up to 25
          seconds. The answer&apos;s <code>read_at</code> is when the message was first marked read; calling again answers the same time.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {READ}
        </pre>
        <ul>
          <li>
            Only a received WhatsApp message can be marked read: a message you sent, or an e-mail, answers <code>409</code>{" "}
            <code>not_inbound</code> with <code>param</code> <code>id</code>.
          </li>
          <li>
            When Meta does not take the receipt (an expired access token, for example) the answer is <code>409</code>{" "}
            <code>read_not_sent</code> with Meta&apos;s reason, and the message stays unread.
          </li>
          <li>
            In the dashboard, a contact&apos;s WhatsApp conversation shows which received messages are unread; <strong>Mark as read</strong>{" "}
            marks them. Opening the page alone tells the contact nothing.
          </li>
        </ul>
      </Section>

      <Section id="error-codes" title="Meta's error codes">
        <p>
          A failed message keeps the provider&apos;s code in <code>error_code</code>: Meta&apos;s number as text (such as{" "}
          <code>&quot;131047&quot;</code>), <code>smtp_&lt;reply code&gt;</code> for an SMTP rejection, or one of ours (
          <code>channel_disconnected</code>, <code>channel_credentials_unreadable</code> when the channel&apos;s stored credentials cannot
          be opened with the server&apos;s secret, <code>simulated_failure</code>, <code>channel_paused</code>). Temporary codes mean
          WhatsApp refused the request without acting on it, so the message is tried again with backoff for up to 24 hours; so are a bare
          HTTP 429 or 503. Every other error fails the message at once. 130429 and 131056 also make the channel pause briefly before sending
          more.
        </p>
        <p>
          Some refusals change more than the message. 131050 means the contact stopped marketing messages: the contact gets{" "}
          <code>whatsapp_marketing_opt_out</code>, later marketing templates to it are refused with <code>409 marketing_opted_out</code>,
          and journeys skip it (utility and authentication templates still go). 131042 (a payment problem) and 368 (a policy block) pause
          the channel: <code>canal.pausado</code> is sent, live sends on it answer <code>409 channel_paused</code>, and journeys skip their
          WhatsApp steps, until you fix the cause with Meta and resume the channel on the Channels page or with{" "}
          <code>svc channel resume</code> (<code>canal.retomado</code>). A number sends up to 80 messages per second, and up to 1,000 once
          Meta reports its throughput upgrade.
        </p>
        <p>
          A message is never sent twice. When the Cloud API received a message but never answered (no answer within 15 s, or the connection
          closed before the answer), nobody knows yet whether WhatsApp took it, so it is not sent again: it stays <code>queued</code> with{" "}
          <code>error_code</code> <code>provider_timeout</code> until WhatsApp&apos;s status report arrives, which moves it on as usual and
          clears the code (every send carries the message&apos;s id as <code>biz_opaque_callback_data</code>, so the report finds it).
          Without a report within 15 minutes it fails with <code>provider_timeout</code>, and may still have reached the recipient.
        </p>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">code</th>
                <th scope="col">title</th>
                <th scope="col">kind</th>
                <th scope="col">meaning</th>
              </tr>
            </thead>
            <tbody>
              {META_ERROR_CODES.map((e) => (
                <tr key={e.code} id={`meta-${e.code}`}>
                  <th scope="row">
                    <code>{e.code}</code>
                  </th>
                  <td>{e.title}</td>
                  <td>{e.kind === "temporary" ? (e.slows ? "temporary, slows the channel" : "temporary") : "permanent"}</td>
                  <td>{e.meaning}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>
    </main>
  );
}
