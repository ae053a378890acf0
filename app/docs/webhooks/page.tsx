import type { Metadata } from "next";
import Link from "next/link";
import { EVENT_DESCRIPTIONS, EVENT_NAMES } from "@/server/events/event-names.ts";
import { Markdown } from "../markdown.tsx";
import { DocsToc, makeSection } from "../sections.tsx";

export const metadata: Metadata = {
  title: "Verify webhook signatures",
  description: "The body and signature of svc's webhook deliveries, how to verify them in Node.js, retries, ordering and test events.",
};

const BODY_EXAMPLE = `POST /webhooks/svc HTTP/1.1
Content-Type: application/json
User-Agent: svc-webhooks/1.0
X-svc-Signature: t=1767225600,v1=0b1f2e…9c4d
webhook-id: evt_0mjvt0w00Q3k9ZbX1c2V4n7M
webhook-timestamp: 1767225600
webhook-signature: v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
X-svc-Event-Id: evt_0mjvt0w00Q3k9ZbX1c2V4n7M
X-svc-Delivery-Id: whd_7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d

{"id":"evt_0mjvt0w00Q3k9ZbX1c2V4n7M","event":"mensagem.entregue","type":"mensagem.entregue","timestamp":"2026-01-01T00:00:00.000Z","namespace":"acme-k3j9x2","mode":"live","data":{"id":"msg_2b1c…","channelType":"whatsapp","status":"delivered","contact":"ct_9d8e…","metadata":{"order_id":"ord_1042"}}}`;

const HEADER_EXAMPLE = `X-svc-Signature: t=1767225600,v1=<hex HMAC with the current secret>,v1=<hex HMAC with the previous secret>`;

const NODE_SAMPLE = `import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

// The endpoint's secret(s) as shown once in the dashboard (whsec_…). While you switch to a
// rotated secret, list both: SVC_WEBHOOK_SECRETS=whsec_new…,whsec_old…
const SECRETS = (process.env.SVC_WEBHOOK_SECRETS ?? "").split(",").filter(Boolean);
const TOLERANCE_SECONDS = 300;

/**
 * True when \`t\` is within 300 s of this clock and one of the header's v1 values is the
 * HMAC-SHA256, keyed with one of our secrets, of "<t>.<raw body>".
 */
export function verifySignature(rawBody, header, secrets, nowMs = Date.now()) {
  if (typeof header !== "string") return false;
  let t = null;
  const signatures = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=");
    if (key === "t" && /^\\d+$/.test(value)) t = Number(value);
    // One v1 per secret that is valid right now (two during a rotation).
    if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) signatures.push(Buffer.from(value, "hex"));
  }
  if (t === null || signatures.length === 0) return false;
  // A replayed old request is refused.
  if (Math.abs(nowMs / 1000 - t) > TOLERANCE_SECONDS) return false;
  return secrets.some((secret) => {
    // Keyed with the whole secret string, whsec_ included; over the bytes as received.
    const expected = createHmac("sha256", secret).update(\`\${t}.\`).update(rawBody).digest();
    // Constant-time comparison of equal-length buffers.
    return signatures.some((signature) => timingSafeEqual(signature, expected));
  });
}

const seen = new Set(); // in production: a unique index on the event id in your database

createServer((req, res) => {
  if (req.method !== "POST") return res.writeHead(405).end();
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    // The raw body: never verify a re-serialized JSON.parse result.
    const rawBody = Buffer.concat(chunks);
    if (!verifySignature(rawBody, req.headers["x-svc-signature"], SECRETS)) {
      return res.writeHead(400, { "content-type": "text/plain" }).end("invalid signature");
    }
    const event = JSON.parse(rawBody.toString("utf8"));
    // Answer 2xx at once (within 10 s), then do the work.
    res.writeHead(200).end();
    if (seen.has(event.id)) return; // a retry or a replay of an event already handled
    seen.add(event.id);
    if (event.mode === "test") console.log("test event", event.event, event.data);
    else console.log(event.timestamp, event.event, event.data);
  });
}).listen(3001);`;

const STANDARD_SAMPLE = `// npm install standardwebhooks
import { Webhook } from "standardwebhooks";

// The secret exactly as the dashboard showed it, whsec_ included.
const wh = new Webhook(process.env.SVC_WEBHOOK_SECRET);

// rawBody: the body as received (a string or Buffer); headers: the request's headers.
// Throws when the signature does not match or webhook-timestamp is more than 5 minutes off.
const event = wh.verify(rawBody, {
  "webhook-id": req.headers["webhook-id"],
  "webhook-timestamp": req.headers["webhook-timestamp"],
  "webhook-signature": req.headers["webhook-signature"],
});
console.log(event.type, event.data);`;

const STRIPE_SAMPLE = `// npm install stripe
import Stripe from "stripe";

const stripe = new Stripe("unused"); // only its webhook helper is used; no Stripe account needed

// Reads X-svc-Signature (t=…,v1=…) exactly as it reads Stripe-Signature.
// Throws when no v1 matches or t is more than 300 seconds off.
const event = stripe.webhooks.constructEvent(rawBody, req.headers["x-svc-signature"], process.env.SVC_WEBHOOK_SECRET, 300);
console.log(event.event, event.data);`;

const EXPRESS_SAMPLE = `// Express: keep the raw bytes for this route (express.json() would parse them away).
app.post("/webhooks/svc", express.raw({ type: "application/json" }), (req, res) => {
  if (!verifySignature(req.body, req.get("x-svc-signature"), SECRETS)) return res.status(400).end();
  res.sendStatus(200);
  handle(JSON.parse(req.body.toString("utf8")));
});`;

const RETRIES = ["10 seconds", "1 minute", "5 minutes", "30 minutes", "2 hours", "6 hours", "12 hours", "24 hours"];

const SECTIONS = {
  endpoints: "Endpoints and secrets",
  body: "The request",
  events: "Events",
  signature: "The signature",
  "standard-webhooks": "Standard Webhooks",
  stripe: "Verify with the stripe package",
  node: "Verify with node:crypto",
  retries: "Answers and retries",
  order: "Duplicates and order",
  "test-events": "Test events",
  listen: "Test events on your machine: svc listen",
};
const Section = makeSection(SECTIONS);

/** /docs/webhooks: what a delivery looks like and how a receiver checks that it came from svc (D30 to D34). */
export default function WebhooksGuidePage() {
  return (
    <main className="docs-page">
      <h1>Verify webhook signatures</h1>
      <p className="docs-lead">
        svc tells your systems about every message, journey and contact change with an HTTP <code>POST</code> to the endpoints registered in
        the dashboard. Each delivery is signed with the endpoint&apos;s secret: check the signature before you trust the body.
      </p>
      <DocsToc sections={SECTIONS} />

      <Section id="endpoints">
        <ul>
          <li>
            In the dashboard, <em>Webhooks</em> → <em>Add endpoint</em>: an <code>https</code> URL on a public address, an optional
            description, and the events it receives (none chosen: every event, including names added later).
          </li>
          <li>
            A workspace holds at most <strong>50</strong> endpoints; adding another is refused with <code>409</code>{" "}
            <code>limit_reached</code>. One endpoint can receive every event, so delete one you no longer use first.{" "}
            <code>GET /webhook-endpoints</code> lists them newest first and pages like every list (<code>limit</code>, <code>after</code>, a{" "}
            <code>Link</code> header to the next page).
          </li>
          <li>
            The endpoint&apos;s secret, <code>whsec_</code> followed by 32 random characters, is shown <strong>once</strong>, right after
            adding. Keep it in your receiver&apos;s configuration. If it is lost, rotate it.
          </li>
          <li>
            <em>Rotate secret</em> makes a new secret (shown once) and keeps the previous one valid for 24 hours: until then every delivery
            carries one signature per valid secret, so the receiver accepts deliveries whichever of the two it holds.
          </li>
        </ul>
      </Section>

      <Section id="body">
        <p>
          A <code>POST</code> with a JSON body. Besides the signature it carries the event id and the delivery id in headers, for your logs:
        </p>
        <pre className="docs-code" tabIndex={0}>
          {BODY_EXAMPLE}
        </pre>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">field</th>
                <th scope="col">meaning</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">
                  <code>id</code>
                </th>
                <td>
                  The event&apos;s id, <code>evt_…</code>: unique per event, the same on every retry and replay.
                </td>
              </tr>
              <tr>
                <th scope="row">
                  <code>event</code>
                </th>
                <td>
                  The event name: one of <a href="#events">the events below</a>. New names may appear within <code>/v1</code>: ignore those
                  you do not know.
                </td>
              </tr>
              <tr>
                <th scope="row">
                  <code>type</code>
                </th>
                <td>
                  The same as <code>event</code>, under the name Standard Webhooks tools read.
                </td>
              </tr>
              <tr>
                <th scope="row">
                  <code>timestamp</code>
                </th>
                <td>When the event happened: ISO 8601 with milliseconds, UTC.</td>
              </tr>
              <tr>
                <th scope="row">
                  <code>namespace</code>
                </th>
                <td>
                  The workspace, as <code>GET /</code> returns it in <code>workspace</code>.
                </td>
              </tr>
              <tr>
                <th scope="row">
                  <code>mode</code>
                </th>
                <td>
                  <code>test</code> or <code>live</code>: the mode of the key or process that caused the event; changes made in the
                  dashboard are <code>live</code>, test events sent from the dashboard are <code>test</code>.
                </td>
              </tr>
              <tr>
                <th scope="row">
                  <code>data</code>
                </th>
                <td>
                  Message events: <code>id</code>, <code>channelType</code>, <code>status</code>, <code>contact</code>,{" "}
                  <code>metadata</code> (what you gave on send, <code>{"{}"}</code> when nothing), plus <code>error</code> on{" "}
                  <code>mensagem.falhou</code>. Journey events: <code>id</code> (the run), <code>flow_id</code>, <code>contact</code>,{" "}
                  <code>status</code>, plus <code>reason</code> on <code>fluxo.parado</code> when one was given. Contact events: the Contact
                  object.
                </td>
              </tr>
            </tbody>
          </table>
        </div>
      </Section>

      <Section id="events">
        <p>The names are part of the API and stay as they are; this is what each one means.</p>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">event</th>
                <th scope="col">meaning</th>
              </tr>
            </thead>
            <tbody>
              {EVENT_NAMES.map((name) => (
                <tr key={name} id={`event-${name}`}>
                  <th scope="row">
                    <code>{name}</code>
                  </th>
                  <td>
                    <strong>{EVENT_DESCRIPTIONS[name].title}.</strong> <Markdown text={EVENT_DESCRIPTIONS[name].description} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section id="signature">
        <p>
          Every delivery is signed twice, with the same secret and the same timestamp, so any of these checks works: the{" "}
          <code>X-svc-Signature</code> header below, or the <a href="#standard-webhooks">Standard Webhooks</a> headers.
        </p>
        <pre className="docs-code" tabIndex={0}>
          {HEADER_EXAMPLE}
        </pre>
        <ol>
          <li>
            <code>t</code> is the time of the attempt in Unix seconds. Refuse a request whose <code>t</code> is more than{" "}
            <strong>300 seconds</strong> from your clock: it is an old request played again.
          </li>
          <li>
            <code>v1</code> is the lowercase hexadecimal HMAC-SHA256 of the text <code>&lt;t&gt;.&lt;raw body&gt;</code> (the value of{" "}
            <code>t</code>, a dot, then the body bytes exactly as received), keyed with the whole secret string, <code>whsec_</code>{" "}
            included.
          </li>
          <li>
            There is one <code>v1</code> per secret valid at the time (two during the 24 hours after a rotation, the current secret&apos;s
            first). Accept the request when any of them matches; compare in constant time.
          </li>
          <li>Verify the raw body: parsing the JSON and serializing it again changes the bytes and breaks the signature.</li>
        </ol>
      </Section>

      <Section id="standard-webhooks">
        <p>
          Deliveries also follow the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> specification, so its libraries (and
          Svix-style tooling) verify them without code of your own:
        </p>
        <ul>
          <li>
            <code>webhook-id</code> is the event&apos;s <code>id</code>, the same on every retry and replay.
          </li>
          <li>
            <code>webhook-timestamp</code> is the time of the attempt in Unix seconds, the same as <code>t</code> of{" "}
            <code>X-svc-Signature</code>.
          </li>
          <li>
            <code>webhook-signature</code> is <code>v1,</code> followed by the base64 HMAC-SHA256 of{" "}
            <code>&lt;webhook-id&gt;.&lt;webhook-timestamp&gt;.&lt;raw body&gt;</code>, keyed with the base64-decoded part of the secret
            after <code>whsec_</code> (the 32 characters after the prefix are valid base64 and decode to 24 bytes). During the 24 hours
            after a rotation there is one <code>v1,…</code> entry per valid secret, separated by spaces.
          </li>
        </ul>
        <p>
          With the <code>standardwebhooks</code> package, pass the secret as shown:
        </p>
        <pre className="docs-code" tabIndex={0}>
          {STANDARD_SAMPLE}
        </pre>
      </Section>

      <Section id="stripe">
        <p>
          <code>X-svc-Signature</code> uses the same scheme as Stripe&apos;s signatures, so the <code>stripe</code> package&apos;s verifier
          accepts it with the secret as shown:
        </p>
        <pre className="docs-code" tabIndex={0}>
          {STRIPE_SAMPLE}
        </pre>
      </Section>

      <Section id="node">
        <p>
          With <code>node:crypto</code> only (<code>createHmac</code>, <code>timingSafeEqual</code>), on a plain <code>node:http</code>{" "}
          server:
        </p>
        <pre className="docs-code" tabIndex={0}>
          {NODE_SAMPLE}
        </pre>
        <p>With Express, read the route&apos;s body raw and use the same function:</p>
        <pre className="docs-code" tabIndex={0}>
          {EXPRESS_SAMPLE}
        </pre>
      </Section>

      <Section id="retries">
        <ul>
          <li>
            A delivery succeeds when your endpoint answers any <code>2xx</code> within <strong>10 seconds</strong>. Answer first, then
            process: slow work belongs in your own queue.
          </li>
          <li>
            Anything else (another status, no answer in time, a connection error) is retried, with jitter, after about {RETRIES.join(", ")}:{" "}
            <strong>nine attempts</strong> in all over about two days. After the last one the delivery is <code>failed</code>.
          </li>
          <li>
            Redirects are not followed: a <code>3xx</code> counts as a failed attempt. Register the final URL.
          </li>
          <li>
            An endpoint whose deliveries have all failed for 5 days in a row is disabled, and the dashboard says so. Enable it again once it
            is fixed.
          </li>
          <li>
            Every attempt (time, status code, duration, response excerpt) is kept for 30 days in the endpoint&apos;s delivery log in the
            dashboard, where a delivery, or every failed delivery of a time range, can be replayed. A replay sends the same event id and
            body again. An attempt that got no answer says why in words, with the system&apos;s code at the end: &ldquo;The endpoint refused
            the connection (ECONNREFUSED 203.0.113.7:443).&rdquo;, &ldquo;The endpoint did not answer in time: no answer within 10
            s.&rdquo;, a closed connection, a refused TLS certificate or a host name that does not resolve.
          </li>
        </ul>
      </Section>

      <Section id="order">
        <ul>
          <li>
            The same event can arrive more than once (a retry after an answer that was lost, a replay): <strong>deduplicate by</strong>{" "}
            <code>id</code>.
          </li>
          <li>
            Order across events is <strong>not guaranteed</strong>: a <code>mensagem.lida</code> can arrive before the{" "}
            <code>mensagem.entregue</code> of the same message when one of them was retried. Order by <code>timestamp</code>, and never let
            an older event overwrite the state a newer one set.
          </li>
        </ul>
      </Section>

      <Section id="test-events">
        <p>
          <em>Send test event</em> in the dashboard sends one sample event of the name you choose to that endpoint only, signed, retried and
          logged like any delivery. Its body has <code>&quot;mode&quot;: &quot;test&quot;</code> and made-up ids: nothing happened in the
          workspace. Events caused by test keys (<code>svc_test_…</code>) are <code>test</code> too. Branch on <code>mode</code> so test
          events never touch production data.
        </p>
      </Section>

      <Section id="listen">
        <p>
          <code>svc listen --forward-to http://localhost:4242/webhooks</code>, run in the service&apos;s directory with a test key (
          <code>SVC_API_KEY</code>, scope <code>webhooks:read</code>), posts each test-mode event of the workspace to your local receiver,
          signed as real deliveries are: no public URL needed. <code>--events</code> takes a comma-separated list of names.
        </p>
        <ul>
          <li>
            <strong>One secret per workspace and key.</strong> It prints its signing secret at every start, and it is the same secret each
            time: it is kept in <code>~/.config/svc/listen.json</code> (under <code>$XDG_CONFIG_HOME</code> when set), beside a digest of
            the key, never the key. <code>--rotate-secret</code> makes a new one, kept from then on.
          </li>
          <li>
            <strong>Nothing missed.</strong> It remembers the last event it forwarded. When the stream drops, or when you start it again
            within 24 hours, it resumes right after that event (the stream&apos;s <code>Last-Event-ID</code>), and forwards each event once.
          </li>
          <li>
            <strong>A receiver that stalls.</strong> While your receiver answers, the stream keeps up with any volume. If nothing is read
            for 30 seconds while events wait (a receiver paused in a debugger, say), the service ends the stream with a last message saying
            why, <code>event: stream.closed</code> with <code>{'{"reason":"slow_reader",…}'}</code>; <code>svc listen</code> opens it again
            and resumes after the last event it forwarded.
          </li>
          <li>
            <strong>A sample event on demand.</strong> <code>svc trigger mensagem.entregue</code> records a sample test-mode event of that
            name, with made-up ids, and prints its id (<code>{'{"id":"evt_…"}'}</code> with <code>--json</code>). It reaches{" "}
            <code>svc listen</code> and the test-mode endpoints that take that event, like any test event. It needs a test key with the
            scope <code>webhooks:write</code>.
          </li>
          <li>
            With <code>--json</code>, <code>svc listen</code> prints one JSON object per line: first{" "}
            <code>{'{"secret":"whsec_…","workspace":…,"resumed_after":…}'}</code>, then one per event forwarded,{" "}
            <code>{'{"at","event","id","status"}'}</code> (<code>status</code> null with an <code>error</code> when your receiver did not
            answer).
          </li>
        </ul>
        <p>
          Without the CLI, read <code>GET /api/v1/webhook-events/stream</code> (Server-Sent Events, test keys only) and send{" "}
          <code>Last-Event-ID</code> when you reconnect; a stream opened without it starts from the moment it opens.
        </p>
        <p>
          See also <Link href="/docs/getting-started">Getting started</Link> and the <Link href="/docs/errors">error reference</Link>.
        </p>
      </Section>
    </main>
  );
}
