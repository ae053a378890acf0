import type { Metadata } from "next";
import { API_PREFIX } from "@/server/api/rest-paths.ts";
import { ApiReference } from "./api-reference.tsx";
import { requestOrigin } from "./origin.ts";

export const metadata: Metadata = {
  title: "API reference",
  description: "Reference of the svc REST API: endpoints, schemas, errors and examples.",
};

/**
 * /docs: the official TypeScript client first (D60), then the API reference, rendered by
 * Scalar from the service's own OpenAPI document.
 */
export default async function ApiReferencePage() {
  const origin = await requestOrigin();
  return (
    <main className="docs-reference">
      <section className="docs-page" aria-labelledby="client">
        <h1 id="client">Official TypeScript client</h1>
        <p>
          <code>@svc/client</code> types every request and response from the OpenAPI document, adds an <code>Idempotency-Key</code> to every
          POST, retries <code>429</code> and <code>5xx</code> answers after <code>Retry-After</code>, walks list pages for you, throws
          errors carrying <code>type</code>, <code>code</code>, <code>param</code> and <code>status</code>, and verifies webhook signatures.
          It needs only <code>fetch</code> (Node.js 20 or later, browsers, edge runtimes).
        </p>
        <pre className="docs-code" tabIndex={0}>
          npm install @svc/client
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
