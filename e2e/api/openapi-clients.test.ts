import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { generate } from "orval";
import { afterAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../server/api/openapi.ts";
import { ROOT } from "../support/server.ts";

// D56: clients generated from the document by third-party tools compile under `strict`:
// openapi-typescript (+ openapi-fetch) and orval (fetch client). Offline: both read the file.

const dir = mkdtempSync(join(tmpdir(), "svc-clients-"));
const spec = join(dir, "openapi.json");
writeFileSync(spec, JSON.stringify(openApiDocument("https://svc.invalid")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tsc = (files: string[]) =>
  execFileSync(
    process.execPath,
    [
      join(ROOT, "node_modules/typescript/bin/tsc"),
      "--noEmit",
      "--strict",
      "--noUncheckedIndexedAccess",
      "--skipLibCheck",
      "--target",
      "es2022",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--types",
      "node",
      "--typeRoots",
      join(ROOT, "node_modules/@types"),
      ...files,
    ],
    { cwd: ROOT, encoding: "utf8" },
  );

describe("clients generated from the OpenAPI document", () => {
  it("openapi-typescript + openapi-fetch: types that compile and type the calls", async () => {
    const out = join(dir, "ot");
    mkdirSync(out);
    writeFileSync(join(out, "schema.d.ts"), astToString(await openapiTS(new URL(`file://${spec}`))));
    writeFileSync(
      join(out, "use.ts"),
      `import createClient from "${join(ROOT, "node_modules/openapi-fetch/dist/index.mjs")}";
import type { components, paths } from "./schema.js";
const svc = createClient<paths>({ baseUrl: "https://svc.invalid/api/v1", headers: { Authorization: "Bearer svc_test_x" } });
export async function send(): Promise<string | undefined> {
  const { data, error } = await svc.POST("/messages", {
    body: { channel: "whatsapp", to: { phone: "+5511987654321" }, whatsapp: { body: "Hi" } },
  });
  if (error) return error.error.code;
  // 202 is the message; 200 a dry run's (D71), which has no id: the generated type says both.
  return "id" in data ? data.id : undefined;
}
// @ts-expect-error a recipient needs an address
export const none: components["schemas"]["Recipient"] = {};
export const code: components["schemas"]["ApiError"]["error"]["code"] = "resource_missing";
// @ts-expect-error not a code of the API
export const bad: components["schemas"]["ApiError"]["error"]["code"] = "no_such_code";
`,
    );
    expect(tsc([join(out, "use.ts")])).toBe("");
  });

  it("orval (fetch client): compiles", async () => {
    const target = join(dir, "orval", "svc.ts");
    await generate({
      input: { target: spec },
      output: { target, client: "fetch", mode: "single", override: { fetch: { includeHttpResponseReturnType: true } } },
    });
    expect(tsc([target])).toBe("");
  });
});
