import type { Metadata } from "next";
import type { ReactNode } from "react";

export const metadata: Metadata = {
  title: "Usage and what WhatsApp messages cost",
  description:
    "How svc counts your monthly usage, how Meta prices each WhatsApp message, and how to see an estimated cost per month and per journey.",
};

const USAGE = `curl https://svc.example.com/api/v1/usage -H "Authorization: Bearer $SVC_API_KEY"

{"period":"2026-12","whatsapp":434,"email":1200,"total":1634,"limit":10000,"daily_limit_per_channel":1000,
 "whatsapp_pricing":{"marketing":{"charged":120,"free":4},"utility":{"charged":310,"free":0}},
 "whatsapp_cost":{"amount":9.608,"currency":"USD"}}`;

const MESSAGE = `curl https://svc.example.com/api/v1/messages/msg_… -H "Authorization: Bearer $SVC_API_KEY"

{"id":"msg_…","status":"delivered","channel":"whatsapp", …,
 "pricing":{"category":"marketing","type":"regular"}, …}`;

const PRICES = `# in the service's directory (where npm start runs)
npx svc workspace update --workspace acme \\
  --whatsapp-price marketing=0.0625 --whatsapp-price utility=0.0068 --whatsapp-price authentication=0.0068 \\
  --currency USD --json

# a price changed later; the other categories keep theirs
npx svc workspace update --workspace acme --whatsapp-price marketing=0.0590`;

const STATS = `curl https://svc.example.com/api/v1/flows/flow_…/stats -H "Authorization: Bearer $SVC_API_KEY"

{"flow_id":"flow_…","runs":{…},"conversions":12,
 "versions":[{"version":2,"cost":{"amount":1.632,"currency":"USD"},"steps":[…]},
             {"version":1,"cost":{"amount":0.2176,"currency":"USD"},"steps":[…]}]}`;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

export default function UsageGuidePage() {
  return (
    <main className="docs-page">
      <h1>Usage and what WhatsApp messages cost</h1>
      <p className="docs-lead">
        svc counts every live message it accepts against your monthly and daily limits. For WhatsApp it also keeps how Meta priced each
        message, so you can see what a month, and what each version of a journey, cost.
      </p>

      <Section id="usage" title="This month's usage">
        <p>
          <code>GET /usage</code> (any key) answers the current calendar month in UTC. A live message counts in the month it was accepted,
          whether your backend or a journey sent it; test messages never count. <code>whatsapp_pricing</code> holds the month&apos;s live
          WhatsApp messages by Meta&apos;s pricing category, <code>charged</code> or <code>free</code>; <code>whatsapp_cost</code> is there
          once you have set your prices.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {USAGE}
        </pre>
      </Section>

      <Section id="pricing" title="How Meta prices a message">
        <p>
          Meta charges per delivered message, by the category of the message (<code>marketing</code>, <code>utility</code>,{" "}
          <code>authentication</code>, <code>authentication_international</code>, <code>service</code>, …) and tells how it priced it in
          every status report. A WhatsApp message keeps the pricing of its latest report as <code>pricing</code>: <code>category</code> and{" "}
          <code>type</code> exactly as Meta names them, and <code>null</code> until a report carried one. <code>type</code> is{" "}
          <code>regular</code> when Meta charges for the message, and <code>free_customer_service</code> or <code>free_entry_point</code>{" "}
          when it does not. Meta may add categories and types: they are kept and counted as they come.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {MESSAGE}
        </pre>
        <p>
          A later report that prices the message differently replaces its pricing, and the month&apos;s counts move with it, so each message
          counts once.
        </p>
      </Section>

      <Section id="prices" title="Your prices and the estimated cost">
        <p>
          Meta&apos;s rates depend on your market and volume, so you tell svc what one charged message of each category costs you, in one
          currency (an ISO 4217 code):
        </p>
        <pre className="docs-code" tabIndex={0}>
          {PRICES}
        </pre>
        <p>
          An amount has at most 6 decimals. A malformed <code>--whatsapp-price</code> or <code>--currency</code>, or a first price without a
          currency, is refused with a message naming the flag, and nothing is changed. The estimate is each category&apos;s charged messages
          times its price, summed; a category without a price counts nothing, and free messages cost nothing. It is an estimate: your
          invoice from Meta is the authority.
        </p>
      </Section>

      <Section id="journeys" title="What a journey costs">
        <p>
          A journey&apos;s statistics (<code>GET /flows/{"{id}"}/stats</code>, and its page in the dashboard) give each version the
          estimated cost of the WhatsApp messages its steps sent, in the key&apos;s mode, as <code>cost</code>; it is absent while no prices
          are set.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {STATS}
        </pre>
        <p>
          The dashboard&apos;s <em>Usage</em> page shows the month&apos;s WhatsApp messages by category with their price and estimated cost.
        </p>
      </Section>
    </main>
  );
}
