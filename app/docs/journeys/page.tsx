import type { Metadata } from "next";
import { DocsToc, makeSection } from "../sections.tsx";
import { CART_ABANDONED, CART_FLOW, curlEvent, INVOICE_DUE, INVOICE_PAID, ORDER_PLACED, REMINDER_FLOW } from "./examples.ts";

export const metadata: Metadata = {
  title: "Journeys that react",
  description:
    "Contact events, flows that start on an event, wait for an event or a reply, and stop at their goal; run keys; reading runs.",
};

const SECTIONS = {
  events: "Contact events",
  triggers: "Starting a journey on an event",
  "wait-for": "Waiting for an event or a reply",
  goals: "Goals",
  keys: "Run keys",
  runs: "Reading runs",
  cart: "Worked example: an abandoned cart",
  reminder: "Worked example: a payment reminder",
  limits: "Limits",
};
const Section = makeSection(SECTIONS);

const json = (value: unknown) => JSON.stringify(value, null, 2);

const EVENT_ANSWER = `HTTP/1.1 202 Accepted
{"id":"cev_…","name":"cart_abandoned","contact_id":"ct_…",
 "properties":{"cart_id":"cart_81f2", …},
 "timestamp":"2026-11-27T10:00:00.000Z",
 "created_at":"2026-11-27T10:00:00.012Z","triggered":[]}`;

const WHERE = `{ "trigger": { "event": "order_paid",
    "where": { "all": [ { "property": "total", "gte": 100 },
                        { "any": [ { "property": "items", "contains": "gift card" },
                                   { "property": "coupon", "exists": true } ] } ] },
    "key": "{{event.order_id}}" } }`;

const RUN = `curl https://svc.example.com/api/v1/runs/run_… -H "Authorization: Bearer $SVC_KEY"

{"id":"run_…","flow_id":"flow_…","contact_id":"ct_…","status":"active","key":"inv_2026_0042","version":1,
 "current_step":{"id":null,"path":"steps.1"},"converted_at":null,"created_at":"…","ended_at":null,
 "history":[
  {"at":"…","step":null,"kind":"entered","version":1,"event_id":"cev_…"},
  {"at":"…","step":"steps.0","kind":"sent","message_id":"msg_…","channel":"whatsapp"},
  {"at":"…","step":"steps.1","kind":"waiting","for":"invoice_paid","until":"2026-11-30T10:00:00.000Z"}]}`;

export default function JourneysGuidePage() {
  return (
    <main className="docs-page">
      <h1>Journeys that react</h1>
      <p className="docs-lead">
        Tell svc what your contacts do (an order paid, a cart left behind) and your journeys react: they start on an event, wait for the
        next one or for a reply, and stop the moment their goal is reached.
      </p>
      <DocsToc sections={SECTIONS} />

      <Section id="events">
        <p>
          <code>POST /events</code> (scope <code>events:write</code>) records that a contact did something. <code>to</code> finds the
          contact by <code>contact_id</code>, <code>phone</code> or <code>email</code>, and a new phone or e-mail creates it.{" "}
          <code>properties</code> is any JSON object describing what happened; <code>timestamp</code> is when it happened (default: now).
          The answer is <code>202</code> with the Event; flows react right after it.
        </p>
        <pre className="docs-code">{curlEvent(CART_ABANDONED)}</pre>
        <pre className="docs-code">{EVENT_ANSWER}</pre>
        <ul>
          <li>
            Give your own <code>id</code> to send an event safely more than once (a retry, a replayed queue): a second event with the same{" "}
            <code>id</code> within 24 hours is not recorded again, and the answer is the first event with{" "}
            <code>Idempotent-Replayed: true</code>. <code>Idempotency-Key</code> works too, as on every POST.
          </li>
          <li>Events belong to the key&apos;s mode: a test key&apos;s event starts test runs, whose messages are simulated.</li>
          <li>
            <code>GET /events</code> (scope <code>events:read</code>) lists them newest first, filtered by <code>contact_id</code>,{" "}
            <code>name</code>, <code>created_after</code> and <code>created_before</code>. Each Event&apos;s <code>triggered</code> lists
            the flows its name started: <code>{"{ flow_id, run_id }"}</code>, or <code>{'{ flow_id, reason: "already_enrolled" }'}</code>{" "}
            when the contact was already in the flow. A contact&apos;s page in the dashboard shows its events.
          </li>
        </ul>
      </Section>

      <Section id="triggers">
        <p>
          A flow with a <code>trigger</code> enrolls the contact of every matching event while the flow is <code>active</code>, in the
          event&apos;s mode. <code>where</code> tests the event&apos;s properties: a condition{" "}
          <code>{'{ "property": "<dotted path>", <operator>: value }'}</code> with the operator <code>equals</code>, <code>not_equals</code>
          , <code>gt</code>, <code>gte</code>, <code>lt</code>, <code>lte</code>, <code>exists</code> or <code>contains</code> (a substring
          of a text, or an element of a list), or <code>all</code> / <code>any</code> of conditions, nested up to three levels. Numbers
          compare with numbers and texts with texts.
        </p>
        <pre className="docs-code">{WHERE}</pre>
        <p>
          The run sees the event as <code>{"{{event.<path>}}"}</code> placeholders, such as <code>{"{{event.items.0.name}}"}</code>, besides
          the contact&apos;s own. A contact already in the flow is not enrolled again unless the flow allows re-entry or the trigger gives a{" "}
          <a href="#keys">key</a>. Enrolling through <code>POST /flows/{"{flow_id}"}/enroll</code> keeps working for triggered flows.
        </p>
      </Section>

      <Section id="wait-for">
        <p>
          A <code>wait_for</code> step holds the run until an event of the contact arrives, or until <code>timeout</code> (an ISO 8601
          duration, at most 90 days), then runs <code>on_event</code> or <code>on_timeout</code>, and then the steps after it. Exactly one
          of the two paths runs, whatever arrives at the same moment.
        </p>
        <ul>
          <li>
            <code>event</code> names the event; <code>match</code> requires properties to equal texts, placeholders allowed (
            <code>{'{ "invoice_id": "{{run.key}}" }'}</code>). Values are compared as text, so <code>42</code> matches{" "}
            <code>&quot;42&quot;</code>. Later steps see the event as <code>{"{{wait.<path>}}"}</code>.
          </li>
          <li>
            <code>lookback</code> (at most 7 days) counts an event recorded shortly before the wait began, as if it had arrived during it:
            the earliest one that matches. Without it only events recorded after the wait began count. Events are ordered by when svc
            recorded them, not by their <code>timestamp</code>.
          </li>
          <li>
            Instead of <code>event</code>, <code>message</code> waits for what happens to the message of the run&apos;s latest{" "}
            <code>send</code> step: <code>delivered</code> (a read message counts as delivered), <code>read</code>, <code>failed</code>, or{" "}
            <code>replied</code> (the contact wrote to you on WhatsApp after it). <code>{"{{wait.status}}"}</code> tells which, and{" "}
            <code>{"{{wait.text}}"}</code> holds a reply&apos;s text. With no earlier message the timeout path runs at once.
          </li>
          <li>A run wakes within a second of its event. Runs keep waiting across restarts.</li>
        </ul>
      </Section>

      <Section id="goals">
        <p>
          A flow&apos;s <code>goal</code> names the event that means the journey did its job, with an optional <code>match</code>. When it
          is recorded for the contact of an active run, the run records <code>converted_at</code>; with <code>exit</code> (the default) the
          run ends at once as <code>completed</code> with reason <code>goal_reached</code>, also in <code>fluxo.concluido</code>, and the
          step it was waiting for never runs. Set <code>&quot;exit&quot;: false</code> to count the conversion and let the journey go on. A
          run that reaches its last step completes with reason <code>end</code>.
        </p>
      </Section>

      <Section id="keys">
        <p>
          A key lets one contact be in one flow several times at once: one run per invoice, per order, per cart. Give <code>key</code> when
          enrolling (at most 128 characters) or let the trigger compute it (<code>{'"key": "{{event.invoice_id}}"'}</code>). A second active
          run with the same key is refused (<code>409 already_enrolled</code>, <code>param</code> <code>key</code>; a trigger records it in
          the event&apos;s <code>triggered</code>). <code>{"{{run.key}}"}</code> works in messages and matches, so a goal or a wait ends
          exactly its own invoice&apos;s reminder. <code>POST /flows/{"{flow_id}"}/unenroll</code> with <code>key</code> stops only the runs
          with that key (of the contact in <code>to</code>, or of every contact without it).
        </p>
      </Section>

      <Section id="runs">
        <p>
          <code>GET /runs/{"{run_id}"}</code> (scope <code>flows:read</code>) answers a run with its history: <code>entered</code>,{" "}
          <code>sent</code>, <code>skipped</code> (with a <code>reason</code>: <code>no_address</code>, <code>opted_out</code>,{" "}
          <code>recipient_suppressed</code>, <code>whatsapp_window_closed</code>, <code>no_channel</code>, <code>quota_reached</code>,{" "}
          <code>frequency_capped</code>), <code>waiting</code> (what for and until when), <code>woke</code> (by an event, a message or the
          timeout), <code>path</code> (the branch or wait path taken), <code>converted</code> and <code>ended</code>.{" "}
          <code>GET /flows/{"{flow_id}"}/runs</code> lists a flow&apos;s runs, filtered by <code>status</code>, <code>contact_id</code> and{" "}
          <code>key</code>.
        </p>
        <pre className="docs-code">{RUN}</pre>
      </Section>

      <Section id="cart">
        <p>
          Nudge a contact an hour after they leave a cart worth at least 20, on WhatsApp; if they do not answer within a day, by e-mail
          (skipped when the contact has no e-mail address); stop as soon as that cart becomes an order. Save the flow in the
          dashboard&apos;s editor, or import it: <code>npx svc flow import --workspace acme --file cart.json</code>.
        </p>
        <pre className="docs-code">{json(CART_FLOW)}</pre>
        <p>Your shop tells svc when a cart is abandoned (the event&apos;s id makes a retry harmless):</p>
        <pre className="docs-code">{curlEvent(CART_ABANDONED)}</pre>
        <p>
          The contact enters the journey with the key <code>cart_81f2</code>. If they order within the hour, the goal ends the run before
          anything is sent:
        </p>
        <pre className="docs-code">{curlEvent(ORDER_PLACED)}</pre>
      </Section>

      <Section id="reminder">
        <p>
          Remind a customer of each invoice, thank them when it is paid, and tell them once more when it is overdue; one run per invoice, so
          paying one never stops another&apos;s reminder.
        </p>
        <pre className="docs-code">{json(REMINDER_FLOW)}</pre>
        <p>Your billing system records the invoice falling due, then its payment:</p>
        <pre className="docs-code">{curlEvent(INVOICE_DUE)}</pre>
        <pre className="docs-code">{curlEvent(INVOICE_PAID)}</pre>
        <p>
          The run sends the reminder, waits for <code>invoice_paid</code> with this invoice&apos;s id, takes <code>on_event</code> and sends
          the thanks. A payment recorded up to an hour before the reminder went out still counts (<code>lookback</code>).
        </p>
      </Section>

      <Section id="limits">
        <ul>
          <li>
            <code>name</code>: a lowercase letter, then lowercase letters, digits, <code>_</code> and <code>.</code>, at most 64 characters.
          </li>
          <li>
            <code>properties</code>: at most 8 KiB as JSON, nesting at most 5 levels counting <code>properties</code> itself.
          </li>
          <li>
            <code>timestamp</code>: at most 5 minutes ahead of svc&apos;s clock. <code>id</code>: at most 128 characters.
          </li>
          <li>
            Each refusal is a <code>400</code> with the field in <code>param</code>; a flow document&apos;s faults carry their path, such as{" "}
            <code>steps.3.match.order_id</code> or <code>trigger.where.any.1.gt</code>.
          </li>
        </ul>
      </Section>
    </main>
  );
}
