import type { Metadata } from "next";
import { DocsToc, makeSection } from "../sections.tsx";

export const metadata: Metadata = {
  title: "E-mail deliverability: suppressions, bounces and DNS",
  description:
    "How svc keeps your sending reputation: the suppression list, bounce and complaint reports from your relay, and the DNS records to publish.",
};

const SECTIONS = {
  suppressions: "The suppression list",
  bounces: "Bounces and complaints",
  reputation: "The reputation guard",
  listener: "Reports by e-mail: the return path",
  postfix: "A self-hosted Postfix",
  relays: "Relays with webhooks (SES, SendGrid, Postmark…)",
  dns: "DKIM and the DNS records to publish",
  testing: "Trying it with a test key",
} as const;
const Section = makeSection(SECTIONS);

const REFUSED = `curl https://svc.example.com/api/v1/messages -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"channel":"email","to":{"email":"gone@example.com"},"email":{"subject":"Hi","html":"<p>Hi</p>"}}'

HTTP/1.1 409 Conflict
{"error":{"type":"conflict","code":"recipient_suppressed","param":"to.email",
  "message":"The recipient's address is suppressed (hard_bounce): e-mail to it is not sent.", …}}`;

const LIST = `curl "https://svc.example.com/api/v1/suppressions?reason=hard_bounce" -H "Authorization: Bearer $SVC_API_KEY"

[{"email":"gone@example.com","reason":"hard_bounce","message_id":"msg_…",
  "detail":"550 5.1.1 User unknown","created_at":"2026-11-27T10:00:00.000Z"}]

# suppress an address yourself, or remove one you know works again
curl https://svc.example.com/api/v1/suppressions -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" -d '{"email":"ana@example.com"}'
curl -X DELETE https://svc.example.com/api/v1/suppressions/ana%40example.com -H "Authorization: Bearer $SVC_API_KEY"`;

const CONNECT = `# in the service's directory (where npm start runs); elsewhere npx offers an unrelated package named svc
npx svc channel connect --workspace acme --type email \\
  --smtp-url "smtps://user:pass@smtp.example.com:465" --from news@shop.example.com \\
  --bounce-domain bounces.shop.example.com

# the service, with its SMTP listener on port 25 (or any port your MX forwards to)
INBOUND_SMTP_PORT=25 npm start`;

const POSTFIX = `# /etc/postfix/main.cf of the relay svc sends through: keep the envelope sender as svc sets it
# (no sender_canonical rewriting of bounces+…), and let bounces go back to it by MX.
# The bounce domain's MX record points at the host where svc listens:
bounces.shop.example.com.  MX 10  svc.example.com.`;

const SES = `# the SNS topic your SES identity sends Bounce, Complaint and Delivery notifications to
aws sns subscribe --topic-arn arn:aws:sns:us-east-1:123456789012:ses-notifications \\
  --protocol https --notification-endpoint https://svc.example.com/api/providers/email/ses/ch_…`;

const EVENTS = `curl https://svc.example.com/api/providers/email/events \\
  -H "Authorization: Bearer $EVENTS_TOKEN" -H "Content-Type: application/json" \\
  -d '{"message_id":"<msg_…@shop.example.com>","event":"bounced","reason":"550 5.1.1 user unknown"}'

# "event": "delivered" | "bounced" (permanent) | "soft_bounced" (temporary) | "complained"`;

const DKIM_CONNECT = `# in the service's directory (where npm start runs); elsewhere npx offers an unrelated package named svc
npx svc channel connect --workspace acme --type email \\
  --smtp-url "smtps://user:pass@smtp.example.com:465" --from news@shop.example.com \\
  --bounce-domain bounces.shop.example.com --dkim-selector svc

# or sign with a key of your own (a PEM RSA private key, 1024 to 4096 bits; 2048 recommended)
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out dkim.pem
npx svc channel connect … --dkim-selector svc --dkim-private-key-file dkim.pem`;

const DNS = `# in the service's directory (where npm start runs); elsewhere npx offers an unrelated package named svc
npx svc channel dns --workspace acme --channel ch_… --json

{"records":[
  {"type":"TXT","name":"svc._domainkey.shop.example.com","value":"v=DKIM1; k=rsa; p=MIIBIjANBgkqh…","status":"verified"},
  {"type":"TXT","name":"bounces.shop.example.com","value":"v=spf1 a:smtp.example.com ~all","status":"mismatch",
   "found":["v=spf1 include:_spf.example.net ~all"]},
  {"type":"TXT","name":"_dmarc.shop.example.com","value":"v=DMARC1; p=none","status":"verified"},
  {"type":"MX","name":"bounces.shop.example.com","value":"10 svc.example.com","status":"missing"}],
 "dmarc":{"aligned":true,"policy":"none"},
 "ready":false}`;

const DNS_CHECK = `curl https://svc.example.com/api/v1/channels -H "Authorization: Bearer $SVC_API_KEY"
[{"id":"ch_…","type":"email","name":"Newsletter","external_id":"news@shop.example.com",
  "secrets_set":["smtp_url","events_token","dkim_private_key"], …}]

curl -X POST https://svc.example.com/api/v1/channels/ch_…/dns-check -H "Authorization: Bearer $SVC_API_KEY"
{"channel_id":"ch_…","from_domain":"shop.example.com","bounce_domain":"bounces.shop.example.com",
 "records":[{"kind":"dkim","type":"TXT","name":"svc._domainkey.shop.example.com","value":"v=DKIM1; k=rsa; p=…",
             "status":"verified","found":["v=DKIM1; k=rsa; p=…"],"error":null}, …],
 "dmarc":{"aligned":true,"policy":"none"},"ready":true,"checked_at":"2026-11-24T09:00:00.000Z"}`;

export default function EmailGuidePage() {
  return (
    <main className="docs-page">
      <h1>E-mail deliverability: suppressions, bounces and DNS</h1>
      <p className="docs-lead">
        Mailbox providers judge a sender by what its mail does: mail to addresses that do not exist and mail that people mark as spam get a
        sender blocked within days. svc remembers those addresses and stops sending to them, from the reports your relay sends back.
      </p>
      <DocsToc sections={SECTIONS} />

      <Section id="suppressions">
        <p>
          Each workspace keeps a list of e-mail addresses that e-mail is not sent to. An address gets there when it bounced for good (
          <code>hard_bounce</code>), when its owner reported your mail as spam (<code>complaint</code>), or when you put it there (
          <code>manual</code>). A live e-mail to a listed address is refused before anything is stored, after the opt-out check:
        </p>
        <pre className="docs-code" tabIndex={0}>
          {REFUSED}
        </pre>
        <p>
          A journey&apos;s e-mail step skips a listed address and goes on; the run&apos;s history says <code>recipient_suppressed</code>.
          Addresses are matched in any case. <code>GET /suppressions</code> (scope <code>contacts:read</code>) lists them, oldest first,
          filtered by <code>reason</code>; its <code>after</code> is the last address of the previous page. <code>POST</code> and{" "}
          <code>DELETE</code> need <code>contacts:write</code>; adding an address already listed answers its entry with <code>200</code>.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {LIST}
        </pre>
        <p>
          Remove an address only when you know it works again: mail to dead addresses and to people who complained is what harms your
          reputation.
        </p>
      </Section>

      <Section id="bounces">
        <ul>
          <li>
            The relay refuses the recipient with a permanent reply (5xx) while svc hands the mail over: the message is <code>failed</code>{" "}
            with <code>error_code</code> <code>smtp_550</code> (the reply&apos;s code) and the address is suppressed. A temporary reply
            (4xx) is retried for up to 24 hours and suppresses nothing.
          </li>
          <li>
            A bounce report arrives later, after the relay took the mail: the message becomes <code>failed</code> with{" "}
            <code>smtp_&lt;code&gt;</code> when the report gives the remote server&apos;s reply, else <code>bounce_hard</code>, and the
            address is suppressed. A delay notice changes nothing.
          </li>
          <li>
            A complaint suppresses the address and sets the contact&apos;s <code>opt_out_email</code>.
          </li>
        </ul>
        <p>
          The <code>mensagem.falhou</code> webhook event carries <code>error_code</code> beside <code>error</code>.
        </p>
      </Section>

      <Section id="reputation">
        <p>
          Mailbox providers stop taking mail from senders whose recipients complain or whose addresses bounce. svc watches each e-mail
          channel&apos;s live mail over the last 7 days: the complaint rate (complaints divided by e-mails delivered) and the hard-bounce
          rate (hard bounces divided by e-mails sent). <code>GET /channels/{"{id}"}</code> answers them as <code>reputation</code> (
          <code>complaint_rate</code>, <code>bounce_rate</code>, <code>window_sent</code>), and the channel&apos;s card on the Channels page
          shows them.
        </p>
        <p>
          Once a channel has sent at least 1,000 e-mails in the window and a rate passes its threshold (0.3 % complaints, 4 % hard bounces
          by default), its journey e-mails are paused: the event <code>canal.pausado</code> is sent with <code>reason</code>{" "}
          <code>complaint_rate</code> or <code>bounce_rate</code>, and a journey&apos;s send step on it skips with reason{" "}
          <code>channel_paused</code>. E-mails you send through the API (receipts, password resets) still go out. The rates are checked when
          a complaint or a hard bounce arrives, and every hour for every channel that sent in the window. Clean your list, then resume the
          channel on the Channels page or with <code>svc channel resume --workspace W --channel ID</code>: while a rate is still past its
          threshold, the next check pauses it again. Change the thresholds with{" "}
          <code>svc workspace update --workspace W --guard complaints=0.003,bounces=0.04</code>.
        </p>
      </Section>

      <Section id="listener">
        <p>
          Give the e-mail channel a bounce domain and every mail it sends carries the return path{" "}
          <code>bounces+&lt;message id&gt;@&lt;bounce domain&gt;</code>: the address names its message, so a bounce needs no guessing. Start
          svc with <code>INBOUND_SMTP_PORT</code> and publish an MX record for the bounce domain pointing at it. The listener takes delivery
          status notifications (RFC 3464) and spam complaint reports (ARF, RFC 5965) addressed to a return path of one of your messages, and
          refuses everything else while the sender is still connected. Reports over 1 MB are refused, and each client may hold a few
          connections at once.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {CONNECT}
        </pre>
      </Section>

      <Section id="postfix">
        <p>
          When svc sends through your own Postfix, the relay keeps svc&apos;s return path as the envelope sender; remote servers then send
          their bounces to the bounce domain&apos;s MX, which is svc. Do not rewrite the envelope sender on the relay: its own bounces then
          go back to the return path too.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {POSTFIX}
        </pre>
      </Section>

      <Section id="relays">
        <p>
          Relays that report by webhook rather than by mail (Amazon SES through SNS, SendGrid, Postmark, Mailgun) can post each report to
          the channel&apos;s events endpoint with the events token shown when you connected the channel. Quote svc&apos;s message id, or the
          mail&apos;s <code>Message-ID</code> header, which contains it:
        </p>
        <pre className="docs-code" tabIndex={0}>
          {EVENTS}
        </pre>
        <p>
          Amazon SES reports through SNS straight to svc: subscribe the channel&apos;s SES address to the topic of your SES identity&apos;s
          notifications. svc confirms the subscription itself, checks the signature of every SNS message against Amazon&apos;s certificate,
          refuses old or repeated messages, and matches each notification to its message by the id SES gave when it took the mail, or by the
          mail&apos;s <code>Message-ID</code>. A permanent bounce or a complaint then does what it does on any path; a transient bounce is
          only noted in the message&apos;s history.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {SES}
        </pre>
      </Section>

      <Section id="dns">
        <p>
          Gmail, Yahoo and most mailbox providers file mail without a valid signature as spam, or refuse it. Give the e-mail channel a DKIM
          selector and svc signs every mail it sends with a key of the channel: made for it when you connect it, or the one you give. The
          key is stored encrypted like the channel&apos;s other secrets; only its public half is ever shown.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {DKIM_CONNECT}
        </pre>
        <p>Then publish these records with your DNS host. Each has a job:</p>
        <ul>
          <li>
            <strong>DKIM</strong>, a TXT record at <code>&lt;selector&gt;._domainkey.&lt;From domain&gt;</code>: the public key receivers
            check each mail&apos;s signature with. The signature names your From domain, so it counts for DMARC.
          </li>
          <li>
            <strong>SPF</strong>, a TXT record on the bounce domain (on the From domain when the channel has none): the servers allowed to
            send mail whose return path is that domain. svc lists your relay&apos;s host (<code>a:</code>) or address (<code>ip4:</code>);
            if your relay documents its own <code>include:</code>, add our term to your record or use theirs. One SPF record per name:
            merge, do not add a second.
          </li>
          <li>
            <strong>DMARC</strong>, a TXT record at <code>_dmarc.&lt;From domain&gt;</code>: what receivers do with mail that fails both
            checks. Start with <code>p=none</code>, add <code>rua=mailto:…</code> to receive reports, and move to <code>quarantine</code> or{" "}
            <code>reject</code> once all your mail passes.
          </li>
          <li>
            <strong>MX</strong> of the bounce domain, when the channel has one: brings bounces and complaints back to svc&apos;s SMTP
            listener, on the host of svc&apos;s public address.
          </li>
        </ul>
        <p>
          The channel&apos;s card in the dashboard lists the same records with a copy button each, and <strong>Check now</strong> looks each
          one up: <code>verified</code> when it is published as listed, <code>missing</code> when nothing is published at that name,{" "}
          <code>mismatch</code> when something else is (the card shows what, and <code>--json</code> gives it as <code>found</code>),{" "}
          <code>lookup_failed</code> when DNS did not answer at all (nothing is known of the record; <code>error</code> says why). Your own
          choices stay verified: another DMARC policy, more SPF terms, more DKIM tags. From the command line:
        </p>
        <pre className="docs-code" tabIndex={0}>
          {DNS}
        </pre>
        <p>DNS changes take minutes to hours to reach every resolver; check again later if a record you just published shows as missing.</p>
        <h3>Is the sender ready?</h3>
        <p>
          Gmail, Yahoo and Microsoft require bulk senders to pass DKIM and SPF and to publish a DMARC record that <em>aligns</em>: the
          domain of your From address must be the domain (or share the registered domain) of the DKIM signature or of the return path that
          SPF checks. The check ends with that verdict: <code>dmarc.aligned</code>, <code>dmarc.policy</code> (<code>none</code>,{" "}
          <code>quarantine</code> or <code>reject</code>; null when no DMARC record is published) and <code>ready</code>, true only when
          DKIM is verified, SPF passes, and DMARC is published and aligned. A DMARC record with <code>adkim=s</code> or <code>aspf=s</code>{" "}
          asks for the exact domain. The channel&apos;s card shows the same verdict under <strong>Sender readiness</strong>, and your
          backend can ask for it with a key holding the scope <code>channels:read</code>:
        </p>
        <pre className="docs-code" tabIndex={0}>
          {DNS_CHECK}
        </pre>
        <p>
          <code>GET /channels</code> lists the workspace&apos;s connected channels; credentials are never returned, only the names of those
          stored. A channel that is not an e-mail channel, or another workspace&apos;s, answers <code>404</code> with <code>param</code>{" "}
          <code>id</code>.
        </p>
        <p>
          Every e-mail carries <code>Feedback-ID: &lt;flow id or api&gt;:&lt;channel id&gt;:&lt;workspace id&gt;:svc</code>: Gmail&apos;s
          Postmaster Tools report spam complaints per journey and per channel from it, so one journey drawing complaints can be told apart
          from your transactional mail.
        </p>
      </Section>

      <Section id="testing">
        <p>
          With a test key, <code>bounced@example.com</code> bounces for good: the message fails with <code>error_code</code>{" "}
          <code>bounce_hard</code> and the address lands on the test key&apos;s suppression list, which live sends never see. Test keys are
          never refused for a suppressed address.
        </p>
      </Section>
    </main>
  );
}
