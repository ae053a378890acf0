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
  "quiet-hours": "Time zones and quiet hours",
  caps: "Frequency caps",
  split: "Random splits",
  stats: "Statistics",
  edits: "Editing a live journey",
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
 "created_at":"2026-11-27T10:00:00.012Z",
 "triggered":[{"flow_id":"flow_…","run_id":"run_…","key":"cart_81f2"}]}`;

const WHERE = `{ "trigger": { "event": "order_paid",
    "where": { "all": [ { "property": "total", "gte": 100 },
                        { "any": [ { "property": "items", "contains": "gift card" },
                                   { "property": "coupon", "exists": true } ] } ] },
    "key": "{{event.order_id}}" } }`;

const RUN = `curl https://svc.example.com/api/v1/runs/run_… -H "Authorization: Bearer $SVC_API_KEY"

{"id":"run_…","flow_id":"flow_…","contact_id":"ct_…","status":"active","key":"inv_2026_0042","version":1,
 "current_step":{"id":null,"path":"steps.1"},"converted_at":null,"created_at":"…","ended_at":null,
 "history":[
  {"at":"…","step":null,"kind":"entered","version":1,"event_id":"cev_…"},
  {"at":"…","step":"steps.0","kind":"sent","message_id":"msg_…","channel":"whatsapp"},
  {"at":"…","step":"steps.1","kind":"waiting","for":"invoice_paid","until":"2026-11-30T10:00:00.000Z"}]}`;

const PREVIEW = `curl https://svc.example.com/api/v1/flows/flow_…/preview -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" -d '{"name":"Welcome","status":"active","migrate":"move","steps":[…]}'

{"counts":{"runs":2,"moved":2,"kept":0,"completed":0},
 "runs":[{"run_id":"run_…","contact_id":"ct_…","current":{"id":"wait_a","path":"steps.0.then.0"},
   "next":{"old":{"step":"gone","action":"send","at":"2026-11-27T11:00:00.000Z","text":"Gone"},
           "new":{"step":"after","action":"send","at":"2026-11-27T11:00:00.000Z","text":"After Ana"}}}]}`;

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
        <pre className="docs-code" tabIndex={0}>
          {curlEvent(CART_ABANDONED)}
        </pre>
        <pre className="docs-code" tabIndex={0}>
          {EVENT_ANSWER}
        </pre>
        <ul>
          <li>
            Give your own <code>id</code> to send an event safely more than once (a retry, a replayed queue): a second event with the same{" "}
            <code>id</code> within 24 hours is not recorded again, and the answer is the first event with{" "}
            <code>Idempotent-Replayed: true</code>. <code>Idempotency-Key</code> works too, as on every POST.
          </li>
          <li>Events belong to the key&apos;s mode: a test key&apos;s event starts test runs, whose messages are simulated.</li>
          <li>
            <code>GET /events</code> (scope <code>events:read</code>) lists them newest first, filtered by <code>contact_id</code>,{" "}
            <code>name</code>, <code>created_after</code> and <code>created_before</code>. Each Event&apos;s <code>triggered</code> names
            every active flow whose trigger it matched: <code>{"{ flow_id, run_id, key }"}</code> for the run it started, or{" "}
            <code>{'{ flow_id, reason: "already_enrolled", key }'}</code> when the contact was already in the flow (with that key). The
            answer of <code>POST /events</code> already holds it: the runs start as the event is recorded, and the list shows the same. A
            contact&apos;s page in the dashboard shows its events.
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
        <pre className="docs-code" tabIndex={0}>
          {WHERE}
        </pre>
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
        <pre className="docs-code" tabIndex={0}>
          {RUN}
        </pre>
      </Section>

      <Section id="quiet-hours">
        <p>
          A flow&apos;s <code>{'"quiet_hours": { "start": "21:00", "end": "08:00" }'}</code> keeps its messages out of the night: a{" "}
          <code>send</code> step that becomes due between those local times waits until they end, and the run&apos;s history says{" "}
          <code>held_quiet_hours</code> with the time it will run (<code>until</code>). The hours may wrap midnight; <code>wait</code> steps
          are not affected. Times are read in the contact&apos;s time zone: its <code>time_zone</code> (an IANA name such as{" "}
          <code>America/Sao_Paulo</code>, set through <code>POST /contacts</code> or the dashboard; an unknown name is a <code>400</code> on{" "}
          <code>time_zone</code>), else the zone of its phone number&apos;s country when that country has one zone, else the
          workspace&apos;s (Settings in the dashboard, or{" "}
          <code>npx svc workspace update --workspace acme --time-zone America/Sao_Paulo</code>, in the service&apos;s directory;{" "}
          <code>UTC</code> until set). Daylight-saving changes follow the zone: quiet hours that end at 08:00 end at 08:00 local time on the
          morning the clocks change.
        </p>
      </Section>

      <Section id="caps">
        <p>
          A workspace may allow at most a number of journey messages per contact and channel in any rolling period: Settings in the
          dashboard, or <code>npx svc workspace update --workspace acme --cap whatsapp=3/P1D</code> in the service&apos;s directory (
          <code>--cap whatsapp=none</code> removes it). A flow may add a stricter{" "}
          <code>{'"caps": { "whatsapp": { "count": 1, "period": "PT12H" } }'}</code> of its own. A <code>send</code> step over a cap sends
          nothing and the run goes on, its history saying <code>skipped</code> with reason <code>frequency_capped</code>. Messages sent
          through <code>POST /messages</code> count toward the caps but are never held back by them. Test and live messages are counted
          apart. A count is 1 to 1,000 and a period at most 30 days, in weeks, days, hours or minutes (<code>P1W</code>, <code>P1D</code>,{" "}
          <code>PT12H</code>).
        </p>
      </Section>

      <Section id="split">
        <p>
          A <code>split</code> step sends each contact down one of 2 to 5 paths, in proportion to their whole, positive weights:
        </p>
        <pre className="docs-code" tabIndex={0}>
          {json({
            type: "split",
            paths: [
              { weight: 50, steps: [{ type: "send", channel: "whatsapp", whatsapp: { body: "10% off today" } }] },
              { weight: 50, steps: [{ type: "send", channel: "whatsapp", whatsapp: { body: "Free shipping today" } }] },
            ],
          })}
        </pre>
        <p>
          The path comes from the flow, the step&apos;s place and the contact, so a contact always takes the same path at that step, and
          over many contacts the shares follow the weights. After its path the run goes on with the steps after the split. The run&apos;s
          history records the path taken (<code>path</code> <code>paths.1</code>, <code>index</code> 1). A path&apos;s steps are{" "}
          <code>steps.N.paths.I.steps</code> in a fault&apos;s <code>param</code>.
        </p>
      </Section>

      <Section id="stats">
        <p>
          <code>GET /flows/{"{flow_id}"}/stats</code> (scope <code>flows:read</code>) answers the flow&apos;s runs of your key&apos;s mode
          by status (<code>active</code>, <code>completed</code>, <code>stopped</code>, <code>failed</code>), its <code>conversions</code>,
          and for each version its runs used (newest first) every step by its <code>id</code> and <code>path</code>: <code>reached</code>,{" "}
          <code>waiting</code> (active runs in it now), <code>stopped</code> and <code>failed</code> (runs that left there),{" "}
          <code>skipped</code> by reason, <code>messages</code> by their status now, and for a branch, split or wait_for step the runs per
          path (<code>paths</code>: a branch&apos;s <code>then</code> is 0 and <code>else</code> 1; a wait_for&apos;s event path 0 and
          timeout path 1). The numbers are kept as runs advance, so the answer stays fast with millions of runs. The flow&apos;s page in the
          dashboard shows them on each step.
        </p>
      </Section>

      <Section id="edits">
        <p>
          Every step has an <code>id</code> (at most 64 characters, unique in the document; svc gives one to a step without it, and the
          export and the editor keep it). When you save a new version of a flow that has active runs, <code>migrate</code> says what happens
          to them: <code>keep</code> (the default) lets each run finish on its version; <code>move</code> puts each run on the new version
          at the step with the same <code>id</code>. A run whose step you removed continues at the next step of its old version that still
          exists, or completes with the reason <code>step_removed</code>. A run waiting in a <code>wait</code> or <code>wait_for</code>{" "}
          keeps its due time. <code>migrate</code> on a draft is refused (<code>param</code> <code>migrate</code>).
        </p>
        <p>
          Before saving, <code>POST /flows/{"{flow_id}"}/preview</code> (scope <code>flows:read</code>) takes the same document with{" "}
          <code>migrate</code> and changes nothing. It answers exact <code>counts</code> (<code>runs</code>, <code>moved</code>,{" "}
          <code>kept</code>, <code>completed</code>) and, for the first 1,000 active runs, the step each is in and its next action under the
          old and the new version: the step, <code>send</code>, <code>wait_for</code> or <code>complete</code>, when, and the rendered text
          (or subject) of the message. An invalid document gets the same error, with the same <code>param</code>, as a save. The dashboard
          shows this preview when you save an active flow, and <code>svc flow import --flow &lt;id&gt; --migrate move</code> does the same
          from the command line.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {PREVIEW}
        </pre>
      </Section>

      <Section id="cart">
        <p>
          Nudge a contact an hour after they leave a cart worth at least 20, on WhatsApp; if they do not answer within a day, by e-mail
          (skipped when the contact has no e-mail address); stop as soon as that cart becomes an order. Save the flow in the
          dashboard&apos;s editor, or import it: <code>npx svc flow import --workspace acme --file cart.json</code>, in the service&apos;s
          directory. <code>npx svc flow export --workspace acme --flow &lt;id&gt;</code> prints a saved flow as svc stores it, each step
          with its <code>id</code>; import that file again with <code>--flow &lt;id&gt; --migrate keep</code> and nothing changes.
        </p>
        <p>
          From your own code or CI, the API does the same with a key holding <code>flows:write</code>: <code>POST /flows</code> with the
          document creates the flow; <code>GET /flows/{"{flow_id}"}</code> answers it with its <code>document</code>, each step with its{" "}
          <code>id</code>; <code>PUT /flows/{"{flow_id}"}</code> with a whole document and <code>migrate</code> saves a new version (the
          same document changes nothing); <code>POST /flows/{"{flow_id}"}/status</code> activates, pauses or archives it; and{" "}
          <code>GET /flows/{"{flow_id}"}/versions</code> lists its versions. A fault in a document answers <code>400</code> with its place
          in <code>param</code>, such as <code>steps.2.whatsapp.body</code>. The TypeScript client&apos;s README shows journeys kept in git
          and deployed from CI.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {json(CART_FLOW)}
        </pre>
        <p>Your shop tells svc when a cart is abandoned (the event&apos;s id makes a retry harmless):</p>
        <pre className="docs-code" tabIndex={0}>
          {curlEvent(CART_ABANDONED)}
        </pre>
        <p>
          The contact enters the journey with the key <code>cart_81f2</code>. If they order within the hour, the goal ends the run before
          anything is sent:
        </p>
        <pre className="docs-code" tabIndex={0}>
          {curlEvent(ORDER_PLACED)}
        </pre>
      </Section>

      <Section id="reminder">
        <p>
          Remind a customer of each invoice, thank them when it is paid, and tell them once more when it is overdue; one run per invoice, so
          paying one never stops another&apos;s reminder.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {json(REMINDER_FLOW)}
        </pre>
        <p>Your billing system records the invoice falling due, then its payment:</p>
        <pre className="docs-code" tabIndex={0}>
          {curlEvent(INVOICE_DUE)}
        </pre>
        <pre className="docs-code" tabIndex={0}>
          {curlEvent(INVOICE_PAID)}
        </pre>
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
