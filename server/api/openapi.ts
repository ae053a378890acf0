import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { API_VERSION } from "./routers/system/get-key-check.types.ts";
import { API_PREFIX } from "./rest-paths.ts";
import { appRouter } from "./root.ts";

// The OpenAPI 3 document of the public API, served at /api/v1/openapi.json and rendered at
// /docs. Generated from the same router and zod schemas that serve the requests.
let cached: { appUrl: string; doc: OpenAPIObject } | undefined;

export function openApiDocument(appUrl: string): OpenAPIObject {
  if (cached?.appUrl === appUrl) return cached.doc;
  const doc = generateOpenApiDocument(appRouter, {
    title: "svc API",
    version: API_VERSION,
    baseUrl: `${appUrl}${API_PREFIX}`,
    description: "Server-to-server API for transactional WhatsApp and e-mail, contacts, journeys, usage and signed webhooks.",
    docsUrl: `${appUrl}/docs`,
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer", description: "An API key: `svc_test_…` (simulates) or `svc_live_…` (sends)." },
    },
  });
  cached = { appUrl, doc };
  return doc;
}
