import type { Metadata } from "next";
import { ApiReference } from "./api-reference.tsx";

export const metadata: Metadata = {
  title: "API reference",
  description: "Reference of the svc REST API: endpoints, schemas, errors and examples.",
};

/** /docs: the API reference, rendered by Scalar from the service's own OpenAPI document. */
export default function ApiReferencePage() {
  return (
    <main className="docs-reference">
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
