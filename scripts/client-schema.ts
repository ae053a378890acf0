// The official client's types (packages/client/src/schema.ts, D60): openapi-typescript's output
// for the OpenAPI document, formatted like the rest of the repository. `tsx scripts/client-schema.ts`
// writes the file; packages/client/src/schema.test.ts fails while it is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import { format, resolveConfig } from "prettier";
import { openApiDocument } from "../server/api/openapi.ts";
import { DOCUMENT_ORIGIN } from "./openapi.ts";

export const CLIENT_SCHEMA = fileURLToPath(new URL("../packages/client/src/schema.ts", import.meta.url));

export async function clientSchema(): Promise<string> {
  const doc = structuredClone(openApiDocument(DOCUMENT_ORIGIN));
  const text = COMMENT_HEADER + astToString(await openapiTS(doc as never));
  return format(text, { ...(await resolveConfig(CLIENT_SCHEMA)), filepath: CLIENT_SCHEMA });
}

export const clientSchemaIsCurrent = async () => (await clientSchema()) === readFileSync(CLIENT_SCHEMA, "utf8");

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(CLIENT_SCHEMA, await clientSchema());
