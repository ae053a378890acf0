import { EVENT_NAMES } from "../../events/event-names.ts";
import { createEndpoint } from "../../webhooks/create-endpoint.ts";
import type { CreateEndpointRequest } from "../../webhooks/webhook-schemas.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { optionalString, requiredString, withDatabase, type Command } from "../command.ts";
import { OPERATOR } from "../../lib/caller.ts";

export const webhookCreate: Command = {
  name: "webhook create",
  summary: "Register a webhook endpoint and print its signing secret (once)",
  usage: "webhook create --workspace W --url URL [--events e1,e2,…]",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--url URL", "where events are POSTed: https (http only with ALLOW_PRIVATE_WEBHOOKS=1)"],
    ["--events LIST", `comma-separated event names; every event when absent (${EVENT_NAMES.join(", ")})`],
    ["--description TEXT", "a label for the dashboard"],
    ["", "Hosts on loopback or private addresses are refused unless ALLOW_PRIVATE_WEBHOOKS=1."],
  ],
  options: { workspace: { type: "string" }, url: { type: "string" }, events: { type: "string" }, description: { type: "string" } },
  flags: { workspace: "--workspace", url: "--url", events: "--events", description: "--description" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const events = optionalString(values, "events");
    const request: CreateEndpointRequest = {
      url: requiredString(values, "url"),
      events: events
        ?.split(",")
        .map((e) => e.trim())
        .filter(Boolean) as CreateEndpointRequest["events"],
      description: optionalString(values, "description"),
    };
    const created = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return createEndpoint(database, workspace, request, OPERATOR);
    });
    return {
      json: { id: created.id, secret: created.secret },
      text: [
        `Registered webhook endpoint ${created.id} for ${created.endpoint.url} (${created.endpoint.events.length ? created.endpoint.events.join(", ") : "every event"}).`,
        "",
        "Signing secret (shown only now; verify X-svc-Signature with it):",
        "",
        `  ${created.secret}`,
      ].join("\n"),
    };
  },
};
