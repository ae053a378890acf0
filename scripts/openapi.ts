// Writes the OpenAPI document (server/api/openapi.ts) to a file, for the linters of
// `npm run lint` (Redocly, Spectral), the generated-client test and the client package's types.
// Usage: tsx scripts/openapi.ts [file]   (default .openapi/openapi.json)
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "../server/api/openapi.ts";

/** A reserved domain (RFC 2606): the document's server URL, in files written here. */
export const DOCUMENT_ORIGIN = "https://svc.invalid";

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = resolve(process.argv[2] ?? ".openapi/openapi.json");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(openApiDocument(DOCUMENT_ORIGIN), null, 2)}\n`);
}
