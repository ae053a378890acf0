import type { Metadata } from "next";
import Link from "next/link";
import { openApiDocument } from "@/server/api/openapi.ts";
import { API_PREFIX } from "@/server/api/rest-paths.ts";
import { SCOPES } from "@/server/keys/scopes.ts";
import { Markdown } from "../markdown.tsx";
import { DocsToc, makeSection } from "../sections.tsx";
import { requestOrigin } from "../origin.ts";
import { BATCH_EXAMPLE, scheduledExample } from "./volume-examples.ts";

export const metadata: Metadata = {
  title: "Getting started",
  description: "Base URL, API keys, test and live mode, idempotency, rate limits and errors of the svc API.",
};

type Operation = { summary?: string; parameters?: { $ref?: string }[]; "x-required-scope"?: string };

/** Every public endpoint with its scope and idempotency, read from the OpenAPI document. */
function endpoints(origin: string) {
  const doc = openApiDocument(origin);
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    (["get", "post", "put", "patch", "delete"] as const).flatMap((method) => {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op) return [];
      return [
        {
          method: method.toUpperCase(),
          path,
          summary: op.summary ?? "",
          scope: op["x-required-scope"] ?? null,
          idempotent: (op.parameters ?? []).some((p) => p.$ref === "#/components/parameters/IdempotencyKey"),
        },
      ];
    }),
  );
}

const SECTIONS = {
  "base-url": "Base URL",
  authentication: "Authentication",
  modes: "Test and live keys",
  scopes: "Scopes",
  idempotency: "Idempotency",
  "rate-limits": "Rate limits and quotas",
  "before-sending": "Before sending: reachability and dry runs",
  volume: "Batches, scheduled sends and cancel",
  errors: "Errors",
  webhooks: "Webhooks",
  retention: "How long data is kept",
  versioning: "Versioning",
};
const Section = makeSection(SECTIONS);

export default async function GettingStartedPage() {
  const origin = await requestOrigin();
  const base = `${origin}${API_PREFIX}`;
  const list = endpoints(origin);
  return (
    <main className="docs-page">
      <h1>Getting started</h1>
      <p className="docs-lead">
        A server-to-server HTTP API to send transactional WhatsApp messages and e-mails, keep contacts, tags and custom fields, enroll
        contacts in journeys, read usage and receive signed webhooks. Every endpoint is in the <Link href="/docs">reference</Link>.
      </p>
      <DocsToc sections={SECTIONS} />

      <Section id="base-url">
        <p>
          All paths are relative to <code>{base}</code>; the version is part of the address. Request and response bodies are JSON,
          timestamps are ISO 8601 in UTC. The OpenAPI 3.1 description is at{" "}
          <a href={`${API_PREFIX}/openapi.json`}>{`${base}/openapi.json`}</a>.
        </p>
      </Section>

      <Section id="authentication">
        <p>
          Create an API key in the dashboard (<em>API keys</em>), or on the server with{" "}
          <code>npx svc key create --workspace &lt;workspace&gt; --mode test</code>, run in the service&apos;s directory (where{" "}
          <code>npm start</code> runs; elsewhere <code>npx</code> offers to install an unrelated package named <code>svc</code>). The key is
          shown once: only its hash is stored. Send it on every call; check it with <code>GET /</code>, which needs no scope:
        </p>
        <pre className="docs-code" tabIndex={0}>{`curl ${base}/ \\
  -H "Authorization: Bearer $SVC_API_KEY"

{"ok":true,"version":"1.0.0","workspace":"acme-k3j9x2","mode":"test"}`}</pre>
        <p>
          A missing, unknown, malformed or revoked key is <code>401 authentication</code>. Revoking a key in the dashboard takes effect at
          once. A workspace whose plan has no API access gets <code>403 forbidden</code> on every endpoint.
        </p>
      </Section>

      <Section id="modes">
        <ul>
          <li>
            <code>svc_test_…</code> keys simulate sending: no provider is contacted and no quota is spent, but messages go through the same
            states (<code>sent</code> at once, <code>delivered</code> about 1 s later, <code>read</code> about 2 s later) with the same
            events and webhooks. The recipients <code>+15550100001</code> / <code>failed@example.com</code> end <code>failed</code>,{" "}
            <code>+15550100002</code> / <code>delivered@example.com</code> stop at <code>delivered</code>, and <code>+15550100003</code> /{" "}
            <code>sent@example.com</code> stop at <code>sent</code>.
          </li>
          <li>
            <code>svc_live_…</code> keys really send and count towards usage. They are for backends only: a request with an{" "}
            <code>Origin</code> header (a browser) and a live key is refused with <code>403 forbidden</code>. Test keys work from a browser.
          </li>
          <li>
            Contacts, tags, custom fields and flows are shared by both modes; messages, journey runs and idempotency keys belong to the mode
            of the key that made them.
          </li>
        </ul>
      </Section>

      <Section id="scopes">
        <p>
          A key holds some of the scopes{" "}
          {SCOPES.map((s, i) => (
            <span key={s}>
              {i > 0 ? ", " : ""}
              <code>{s}</code>
            </span>
          ))}{" "}
          (all by default). Calling an endpoint without its scope is <code>403 forbidden</code>, code <code>missing_scope</code>, and the
          message names the scope.
        </p>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">endpoint</th>
                <th scope="col">what it does</th>
                <th scope="col">scope</th>
                <th scope="col">
                  <code>Idempotency-Key</code>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((e) => (
                <tr key={`${e.method} ${e.path}`}>
                  <th scope="row">
                    <code>
                      {e.method} {e.path}
                    </code>
                  </th>
                  <td>
                    <Markdown text={e.summary} />
                  </td>
                  <td>{e.scope ? <code>{e.scope}</code> : <span className="muted">none</span>}</td>
                  <td>{e.idempotent ? "yes" : <span className="muted">no</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section id="idempotency">
        <p>
          Endpoints marked above accept an optional <code>Idempotency-Key</code> header (1 to 255 characters; a UUID per logical request).
          Retrying with the same key is then safe:
        </p>
        <pre className="docs-code" tabIndex={0}>{`curl -X POST ${base}/messages \\
  -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: 5b0d9e3c-8f47-4f7e-9a39-2a1c6f0d4e11" \\
  -d '{"channel":"whatsapp","to":{"phone":"+5511987654321","name":"Ana"},"whatsapp":{"body":"Hi {{name}}"}}'`}</pre>
        <ul>
          <li>
            The same key and body within 24 hours return the stored status, body and headers with <code>Idempotent-Replayed: true</code>;
            nothing is sent or enrolled again. Bodies are compared as canonical JSON, so key order does not matter.
          </li>
          <li>
            The same key with a different body is <code>422 invalid_request</code> (<code>idempotency_key_reused</code>); a retry while the
            first request is still running is <code>409 conflict</code> (<code>idempotency_key_in_use</code>).
          </li>
          <li>
            Keys are scoped to the workspace, the key mode and the endpoint. A <code>5xx</code> is not stored: retry it with the same key.
          </li>
        </ul>
      </Section>

      <Section id="rate-limits">
        <ul>
          <li>
            Each key may make 120 requests per rolling 60 seconds (a plan setting), counted across every instance of the service. Every
            response carries <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code> (whole seconds
            until the current window ends). Beyond the limit the answer is <code>429 rate_limit</code> with <code>Retry-After</code>, in
            whole seconds; on that answer <code>RateLimit-Reset</code> says the same.
          </li>
          <li>
            Live sends also count against the workspace&apos;s daily limit per channel (UTC day) and monthly limit; past either, a live send
            is <code>403 quota_exceeded</code>. <code>GET /usage</code> reports the month&apos;s counts and both limits. Test keys never
            reach a quota.
          </li>
          <li>
            Request bodies are limited to 256 KiB (5 MiB for <code>POST /messages/batch</code>). Every response carries a{" "}
            <code>Request-Id</code>: quote it when you contact support.
          </li>
        </ul>
      </Section>

      <Section id="before-sending">
        <p>
          <code>GET /contacts/{"{id}"}/reachability</code> (scope <code>contacts:read</code>) says, per channel, whether a message would go
          out to the contact now and every reason it would not, with the names a journey&apos;s skipped send step records:
        </p>
        <ul>
          <li>
            <code>no_address</code>: no phone number (WhatsApp) or e-mail address; <code>opted_out</code>: the contact opted out of the
            channel; <code>recipient_suppressed</code>: the address is on the suppression list (live e-mail).
          </li>
          <li>
            <code>whatsapp_window_closed</code>: the contact has not written to you on WhatsApp in the last 24 hours, so only a template
            message would go (<code>template_required</code>; <code>window.expires_at</code> says when it closed or closes).
          </li>
          <li>
            <code>no_channel</code>: no connected channel of the type; <code>quota_reached</code>: the daily or monthly limit is reached
            (live keys only); <code>frequency_capped</code>: the frequency cap of journey messages is reached (a message you send with{" "}
            <code>POST /messages</code> is never capped).
          </li>
          <li>
            <code>reachable</code> is true when there is no reason. With <code>?flow_id=</code>, the answer is for that journey: its quiet
            hours (<code>quiet_hours.active</code> and <code>until</code>, in the contact&apos;s <code>time_zone</code>) and its own caps.
          </li>
        </ul>
        <p>
          In the dashboard, a contact&apos;s page has a &quot;Reachable now?&quot; panel with the same answer; its &quot;For a journey&quot;
          picker (the journeys the contact is in first, then the others) asks it for one journey, quiet hours included.
        </p>
        <p>
          To check one message, content included, send it with <code>&quot;dry_run&quot;: true</code>: every check of a real send runs and
          the answer is <code>200</code> with the message as it would be created, its placeholders filled in <code>content</code>, and no{" "}
          <code>id</code>; or the error the real send would answer. Nothing is written, sent or counted, and an <code>Idempotency-Key</code>{" "}
          is ignored, so you can use the same key for the real send afterwards.
        </p>
        <pre className="docs-code" tabIndex={0}>{`curl -X POST ${base}/messages \\
  -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"channel":"email","to":{"email":"ana@example.com"},"email":{"subject":"Hi {{name}}","html":"<p>Hello</p>"},"dry_run":true}'`}</pre>
      </Section>

      <Section id="volume">
        <p>
          <code>POST /messages/batch</code> sends 1 to 1,000 messages of either channel in one request. Each item is a{" "}
          <code>POST /messages</code> body, checked the same way, and answered in the same place of <code>data</code>: the message, or{" "}
          <code>{'{ "error": { … } }'}</code> whose <code>param</code> starts with <code>messages.&lt;index&gt;.</code>. Valid items are
          accepted even when others are not; the daily and monthly limits count the items in their order, so the items past a limit answer{" "}
          <code>quota_exceeded</code> with <code>param</code> <code>messages.&lt;index&gt;.channel</code>. One <code>Idempotency-Key</code>{" "}
          covers the whole batch.
        </p>
        <pre className="docs-code" tabIndex={0}>{`curl -X POST ${base}/messages/batch \\
  -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: 0f6c2b7e-3d1a-4c8e-9b5f-7a2d4e6f8a10" \\
  -d '${JSON.stringify(BATCH_EXAMPLE)}'`}</pre>
        <p>
          Any message, alone or in a batch, may carry <code>send_at</code>: a timestamp with a time zone from now to 30 days ahead. It stays{" "}
          <code>queued</code>, with <code>scheduled_at</code>, and goes to the provider at that time. A test key&apos;s message starts its
          simulated <code>sent</code>, <code>delivered</code> and <code>read</code> then.
        </p>
        <pre className="docs-code" tabIndex={0}>{`curl -X POST ${base}/messages \\
  -H "Authorization: Bearer $SVC_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '${JSON.stringify(scheduledExample())}'`}</pre>
        <p>
          Until it is handed to the provider, a message can be canceled: <code>POST /messages/{"{id}"}/cancel</code> answers the message,
          now <code>canceled</code>, sends the event <code>mensagem.cancelada</code>, and gives back what it counted against your limits.
          Once the message is with the provider (or being handed over at that moment) the answer is <code>409</code>{" "}
          <code>message_not_cancelable</code>: it is either canceled and never sent, or sent.
        </p>
        <pre className="docs-code" tabIndex={0}>{`curl -X POST ${base}/messages/$MESSAGE_ID/cancel \\
  -H "Authorization: Bearer $SVC_API_KEY"`}</pre>
        <p>
          <code>canceled</code> is a new status: accept status values and event names you do not know yet.
        </p>
      </Section>

      <Section id="errors">
        <p>Errors have the HTTP status of their type and one body shape:</p>
        <pre className="docs-code" tabIndex={0}>{`HTTP/1.1 403 Forbidden

{"error":{"type":"forbidden","code":"missing_scope",
  "message":"This API key lacks the scope \`messages:send\` that this endpoint needs.",
  "param":null,"doc_url":"${origin}/docs/errors#code-missing_scope"}}`}</pre>
        <p>
          Branch on <code>type</code> and <code>code</code>, never on <code>message</code>; <code>param</code> names the field at fault,
          such as <code>to.phone</code>. The <Link href="/docs/errors">error reference</Link> lists every type and code.
        </p>
      </Section>

      <Section id="webhooks">
        <p>
          Register your endpoints in the dashboard (<em>Webhooks</em>) to receive every message, journey and contact event as a signed{" "}
          <code>POST</code>. Check each delivery&apos;s <code>X-svc-Signature</code> before trusting it:{" "}
          <Link href="/docs/webhooks">Verify webhook signatures</Link> shows how, with retries, ordering and test events.
        </p>
      </Section>

      <Section id="retention">
        <ul>
          <li>
            Messages are kept: <code>GET /messages/{"{id}"}</code> answers for as long as the message exists, with its status and
            timestamps.
          </li>
          <li>
            The detailed history of each message (every state change and exchange with the provider) and the event log behind contact
            histories are kept for 90 days, unless the operator of the service configures another period. Older entries are removed
            automatically.
          </li>
          <li>Webhook delivery attempts are kept for 30 days.</li>
        </ul>
      </Section>

      <Section id="versioning">
        <p>
          Within <code>/v1</code> changes are additive only: new endpoints, new optional fields, new event names and new error codes. Ignore
          fields you do not know, and handle an unknown error code by its type.
        </p>
      </Section>
    </main>
  );
}
