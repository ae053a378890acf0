import type { Metadata } from "next";
import { API_PREFIX } from "@/server/api/rest-paths.ts";
import { ApiReference } from "./api-reference.tsx";
import { requestOrigin } from "./origin.ts";

export const metadata: Metadata = {
  title: "API reference",
  description: "Reference of the svc REST API: endpoints, schemas, errors and examples.",
};

/**
 * The first five minutes (D80): each block is pasted as it is, in order, with a test key, on a
 * fresh `npm start`; e2e/api/docs-quickstart.test.ts runs them so (`data-quickstart`: `run`, or
 * `background` for a block that keeps running in a terminal of its own).
 */
function Quickstart({ origin }: { origin: string }) {
  const auth = `-H "Authorization: Bearer $SVC_API_KEY"`;
  return (
    <section className="docs-page" aria-labelledby="quickstart">
      <h1 id="quickstart">Quickstart</h1>
      <p>
        Five minutes, with a test key (<code>svc_test_…</code>: printed by <code>npm start</code> for the demo workspace, or made on the
        dashboard&apos;s API keys page). Test keys never reach WhatsApp or a mailbox: their messages walk <code>sent</code>,{" "}
        <code>delivered</code> and <code>read</code> on a simulated clock, with the same events. In a terminal, set your key as{" "}
        <code>SVC_API_KEY</code>, then:
      </p>
      <pre className="docs-code" tabIndex={0} data-quickstart="run">{`export SVC_API_URL=${origin}`}</pre>
      <h2>1. Check the key</h2>
      <pre className="docs-code" tabIndex={0} data-quickstart="run">{`curl -s $SVC_API_URL/api/v1/ ${auth}`}</pre>
      <p>
        It answers <code>{'{"ok":true,"version":"1.0.0","workspace":"…","mode":"test"}'}</code>.
      </p>
      <h2>2. Receive webhooks on this machine</h2>
      <p>A receiver that prints what it gets, in a second terminal:</p>
      <pre
        className="docs-code"
        tabIndex={0}
        data-quickstart="background"
      >{`node -e 'require("http").createServer((req, res) => { let body = ""; req.on("data", (c) => (body += c)); req.on("end", () => { console.log(req.headers["webhook-id"], body); res.end(); }); }).listen(4242)'`}</pre>
      <p>
        In a third terminal, from the service&apos;s directory, with the same <code>SVC_API_KEY</code> and <code>SVC_API_URL</code>:{" "}
        <code>svc listen</code> streams the workspace&apos;s test events and posts each to the receiver, signed with the secret it prints
        (verify it as you will verify real deliveries, see <a href="/docs/webhooks">Webhooks</a>). No public URL needed. The secret stays
        the same at every start, and a restart resumes after the last event forwarded (<a href="/docs/webhooks#listen">svc listen</a>);{" "}
        <code>svc trigger mensagem.entregue</code> sends it a sample event.
      </p>
      <pre
        className="docs-code"
        tabIndex={0}
        data-quickstart="background"
      >{`node bin/svc.mjs listen --forward-to http://localhost:4242/webhooks`}</pre>
      <h2>3. Send a WhatsApp message and an e-mail</h2>
      <pre className="docs-code" tabIndex={0} data-quickstart="run">{`curl -s $SVC_API_URL/api/v1/messages ${auth} \\
  -H "Content-Type: application/json" \\
  -d '{"channel":"whatsapp","to":{"phone":"+15550100009","name":"Ana"},"whatsapp":{"body":"Hi {{name}}, your order has shipped."}}'`}</pre>
      <pre className="docs-code" tabIndex={0} data-quickstart="run">{`curl -s $SVC_API_URL/api/v1/messages ${auth} \\
  -H "Content-Type: application/json" \\
  -d '{"channel":"email","to":{"email":"ana@example.com","name":"Ana"},"email":{"subject":"Your order","html":"<p>Hi {{name}}, your order has shipped.</p>"}}'`}</pre>
      <p>
        Each answers <code>202</code> with the message, <code>queued</code>. Within seconds the receiver prints{" "}
        <code>mensagem.enviada</code>, <code>mensagem.entregue</code> and <code>mensagem.lida</code> for each.
      </p>
      <h2>4. Read the final status</h2>
      <pre className="docs-code" tabIndex={0} data-quickstart="run">{`curl -s "$SVC_API_URL/api/v1/messages?limit=2" ${auth}`}</pre>
      <p>
        Both are <code>read</code>. Next: the <a href="/docs/getting-started">Getting started</a> guide, the client below, and the
        reference.
      </p>
    </section>
  );
}

/**
 * /docs: the quickstart, the official TypeScript client (D60), then the API reference, rendered
 * by Scalar from the service's own OpenAPI document.
 */
export default async function ApiReferencePage() {
  const origin = await requestOrigin();
  return (
    <main className="docs-reference">
      <Quickstart origin={origin} />
      <section className="docs-page" aria-labelledby="client">
        <h1 id="client">Official TypeScript client</h1>
        <p>
          <code>@svc/client</code> types every request and response from the OpenAPI document, adds an <code>Idempotency-Key</code> to every
          POST, retries <code>429</code> and <code>5xx</code> answers after <code>Retry-After</code>, walks list pages for you, throws
          errors carrying <code>type</code>, <code>code</code>, <code>param</code> and <code>status</code>, and verifies webhook signatures.
          It needs only <code>fetch</code> (Node.js 20 or later, browsers, edge runtimes).
        </p>
        <p>Until it is published on npm, install it from a clone of the service&apos;s repository, in your project:</p>
        <pre className="docs-code" tabIndex={0}>
          npm install /path/to/svc/packages/client
        </pre>
        <pre className="docs-code" tabIndex={0}>{`import { Svc, SvcError } from "@svc/client";

const svc = new Svc({ apiKey: process.env.SVC_API_KEY!, baseUrl: "${origin}" });

try {
  const message = await svc.messages.send({
    channel: "whatsapp",
    to: { phone: "+5511987654321" },
    whatsapp: { body: "Your code is {{code}}." },
    variables: { code: "4821" },
  });
  console.log(message.id, message.status); // msg_… queued
} catch (error) {
  if (error instanceof SvcError) console.error(error.status, error.code, error.param);
  else throw error;
}`}</pre>
        <p>
          Any other language: generate a client from <a href={`${API_PREFIX}/openapi.json`}>{`${origin}${API_PREFIX}/openapi.json`}</a>, or
          start with <a href="/docs/getting-started">Getting started</a>.
        </p>
      </section>
      <noscript>
        <p className="docs-page">
          The interactive reference needs JavaScript. The OpenAPI document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>;
          see also <a href="/docs/getting-started">Getting started</a> and <a href="/docs/errors">Errors</a>.
        </p>
      </noscript>
      <ApiReference />
    </main>
  );
}
