import { beforeAll, describe, expect, it } from "vitest";
import { api, fixtures } from "../support/client.ts";
import { dashboardMutation } from "../support/dashboard.ts";

// D56: every request example of the OpenAPI document, as the server serves it, is a request
// the service accepts. They are sent as written, in the document's order, to a workspace of
// their own: the tag and custom field examples create what the contact example names, the
// contact example creates the recipient the message and flow examples address. Path ids come
// from the responses (or, for flows, a flow made in the dashboard).
const ws = fixtures().examples!;
const client = api(ws.keys.test);

type Json = Record<string, any>;
type Example = { method: string; path: string; name: string; body: unknown };

let doc: Json;
let flowId = "";

beforeAll(async () => {
  doc = (await client.get("/openapi.json")).body;
  ({ flow_id: flowId } = await dashboardMutation<{ flow_id: string }>(ws.id, "flows.create", {
    definition: { name: "Examples", status: "active", steps: [{ type: "wait", duration: "P1D" }] },
  }));
});

function examples(): Example[] {
  const found: Example[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const media = (op as Json).requestBody?.content?.["application/json"];
      if (!media) continue;
      if (media.example !== undefined) found.push({ method, path, name: "example", body: media.example });
      for (const [name, { value }] of Object.entries((media.examples ?? {}) as Json)) found.push({ method, path, name, body: value });
    }
  }
  return found;
}

describe("the OpenAPI document's examples", () => {
  it("are all accepted when sent as written", async () => {
    const all = examples();
    expect(all.length).toBeGreaterThanOrEqual(7);
    expect(all.map((e) => `${e.method} ${e.path}`)).toEqual(
      expect.arrayContaining(["post /tags", "post /custom-fields", "post /contacts", "post /messages", "post /flows/{flow_id}/enroll"]),
    );
    const refused: string[] = [];
    let endpointId = "";
    let messageId = "";
    for (const example of all) {
      // A webhook endpoint's path id: the one the create example made (D77); a message's, the one the send example made.
      const path = example.path
        .replace("{flow_id}", flowId)
        .replace(/^\/webhook-endpoints\/\{id\}/, `/webhook-endpoints/${endpointId}`)
        .replace(/^\/messages\/\{id\}/, `/messages/${messageId}`);
      const res = await client.request(example.method.toUpperCase(), path, example.body);
      if (example.method === "post" && example.path === "/webhook-endpoints") endpointId = String(res.body?.id);
      if (example.method === "post" && example.path === "/messages" && res.status === 202) messageId = String(res.body?.id);
      // D91: only a received WhatsApp message can be marked read, and this workspace receives
      // none: its body passing validation to the service's not_inbound is what is checked.
      if (example.path === "/messages/{id}/read") {
        if (res.status !== 409 || res.body?.error?.code !== "not_inbound")
          refused.push(`${example.method} ${example.path}: ${res.status} ${res.text}`);
        continue;
      }
      // POST /messages answers 202, or 200 for its dry-run example (D71).
      const successes = Object.keys(doc.paths[example.path][example.method].responses).filter((s) => s.startsWith("2"));
      const expected =
        successes.length > 1 ? ((example.body as Json).dry_run === true ? "200" : successes.find((s) => s !== "200")) : successes[0];
      if (String(res.status) !== expected) refused.push(`${example.method} ${example.path} (${example.name}): ${res.status} ${res.text}`);
    }
    expect(refused).toEqual([]);
  });
});
