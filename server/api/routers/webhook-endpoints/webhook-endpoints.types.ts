import { z } from "zod";
import { EVENT_NAMES } from "../../../events/event-names.ts";
import { ZPageQuery } from "../../../lib/pagination.ts";
import { DELIVERY_STATUSES } from "../../../webhooks/webhook-schemas.ts";
import type { Meta } from "../../trpc.ts";

// The webhook endpoints API (D77): the dashboard's services (server/webhooks/), through the
// public REST facade with the scopes `webhooks:read` (GETs) and `webhooks:write` (the rest).

const tags = ["Webhook endpoints"];
const ZEndpointPath = z.strictObject({ id: z.string().describe("Prefix `we_`.").meta({ example: "we_0mwq18yo3jJFvnIzUvqf4q" }) });
const ZEventNames = z
  .array(z.enum(EVENT_NAMES))
  .max(EVENT_NAMES.length)
  .describe("The event names sent to the endpoint; empty or absent: every event.");
const ZUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .describe("Where events are POSTed: https (http only to hosts the operator allows, for development).")
  .meta({ example: "https://example.com/webhooks/svc" });

export const ZWebhookEndpoint = z
  .object({
    id: z.string().describe("Prefix `we_`."),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()).describe("The event names sent to it; empty: every event."),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(["manual", "failing"])
      .nullable()
      .describe("`manual` when disabled by a person, `failing` after five days of failed deliveries."),
    disabled_at: z.string().nullable(),
    failing_since: z.string().nullable().describe("Since when every delivery has failed; null when the last one succeeded."),
    created_at: z.string(),
    secrets: z
      .array(z.object({ created_at: z.string(), expires_at: z.string().nullable() }))
      .describe("The valid signing secrets (never their values): the current one, and during a rotation the previous one with its expiry."),
  })
  .meta({ id: "WebhookEndpoint" });

export const ZCreatedWebhookEndpoint = ZWebhookEndpoint.extend({
  secret: z.string().describe("The signing secret, `whsec_` and 32 characters: shown in this answer only."),
}).meta({ id: "CreatedWebhookEndpoint" });

export const ZWebhookDelivery = z
  .object({
    id: z.string().describe("Prefix `whd_`."),
    endpoint_id: z.string(),
    event_id: z.string().describe("The event's id (prefix `evt_`), the body's `id`."),
    event: z.string().describe("The event name."),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int().describe("Attempts made so far."),
    next_attempt_at: z.string().nullable().describe("When the next attempt is due, while `pending`."),
    last_status_code: z.number().int().nullable().describe("The HTTP status of the last attempt; null when it got no answer."),
    last_error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "WebhookDelivery" });

export const listEndpointsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/webhook-endpoints",
    tags,
    summary: "List webhook endpoints",
    description:
      "The workspace's endpoints, newest first (`created_at` then `id`, descending). A workspace holds at most 50, so the default " +
      'page holds them all; with a smaller `limit`, a `Link` header with `rel="next"` gives the next page.',
    protect: true,
  },
  scope: "webhooks:read",
};
export const ZListEndpointsRequest = ZPageQuery;
export const ZListEndpointsResponse = z.array(ZWebhookEndpoint);

export const createEndpointMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/webhook-endpoints",
    tags,
    summary: "Create a webhook endpoint",
    description:
      "Registers a URL to receive signed event deliveries. The answer carries the signing `secret`, shown this once. " +
      "A URL on a loopback, private, link-local or metadata address is refused unless the operator allows it. " +
      "A workspace holds at most 50 endpoints: the 51st is `409` `limit_reached`.",
    protect: true,
  },
  scope: "webhooks:write",
  successStatus: 201,
  idempotent: true,
  errors: ["private_address", "unresolvable_host", "limit_reached"],
};
export const ZCreateEndpointRequest = z
  .strictObject({
    url: ZUrl,
    events: ZEventNames.optional(),
    description: z.string().trim().max(200).optional().meta({ example: "Order system" }),
  })
  .meta({ id: "CreateWebhookEndpointRequest", examples: [{ url: "https://example.com/webhooks/svc", events: ["mensagem.entregue"] }] });

export const getEndpointMeta: Meta = {
  openapi: { method: "GET", path: "/webhook-endpoints/{id}", tags, summary: "Get a webhook endpoint", protect: true },
  scope: "webhooks:read",
};
export const ZGetEndpointRequest = ZEndpointPath;

export const updateEndpointMeta: Meta = {
  openapi: {
    method: "PATCH",
    path: "/webhook-endpoints/{id}",
    tags,
    summary: "Update a webhook endpoint",
    description:
      "Changes the URL, events, description or enabled flag; fields left out are kept. Disabling stops deliveries at once; " +
      "enabling clears the failure streak.",
    protect: true,
  },
  scope: "webhooks:write",
  errors: ["private_address", "unresolvable_host"],
};
export const ZUpdateEndpointRequest = ZEndpointPath.extend({
  url: ZUrl.optional(),
  events: ZEventNames.optional(),
  description: z.string().trim().max(200).nullable().optional().describe("null clears it."),
  enabled: z.boolean().optional(),
}).meta({ id: "UpdateWebhookEndpointRequest", examples: [{ events: ["mensagem.entregue", "mensagem.falhou"] }] });

export const deleteEndpointMeta: Meta = {
  openapi: {
    method: "DELETE",
    path: "/webhook-endpoints/{id}",
    tags,
    summary: "Delete a webhook endpoint",
    description: "Deletes the endpoint with its secrets and delivery log; its pending deliveries are not sent.",
    protect: true,
  },
  scope: "webhooks:write",
};
export const ZDeleteEndpointRequest = ZEndpointPath;
export const ZDeleteEndpointResponse = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: "DeletedWebhookEndpoint" });

export const rotateSecretMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/webhook-endpoints/{id}/rotate-secret",
    tags,
    summary: "Rotate an endpoint's signing secret",
    description:
      "A new secret becomes current and is in this answer only; the previous one stays valid for 24 hours, " +
      "and meanwhile each delivery carries one signature per valid secret.",
    protect: true,
  },
  scope: "webhooks:write",
};
export const ZRotateSecretRequest = ZEndpointPath;
export const ZRotateSecretResponse = z
  .object({
    secret: z.string().describe("The new signing secret, shown this once."),
    previous_expires_at: z.string().describe("When the previous secret stops being valid."),
  })
  .meta({ id: "RotatedSecret" });

export const testEndpointMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/webhook-endpoints/{id}/test",
    tags,
    summary: "Send a test delivery",
    description:
      'Sends one signed delivery of a sample body of the event (with `"test": true` and made-up ids) to the endpoint, and answers ' +
      "with its first attempt's status code and duration. It is logged with the endpoint's deliveries and retried like them.",
    protect: true,
  },
  scope: "webhooks:write",
  errors: ["endpoint_disabled"],
};
export const ZTestEndpointRequest = ZEndpointPath.extend({
  event: z.enum(EVENT_NAMES).default("contato.criado").describe("The sample event's name; `contato.criado` when absent."),
}).meta({ id: "TestWebhookEndpointRequest", examples: [{ event: "mensagem.entregue" }] });
export const ZTestEndpointResponse = z
  .object({
    delivery_id: z.string(),
    event_id: z.string(),
    status_code: z.number().int().nullable().describe("The endpoint's HTTP status; null when it did not answer (see `error`)."),
    duration_ms: z.number().int().nullable(),
    succeeded: z.boolean().describe("Whether the endpoint answered 2xx in time."),
    error: z.string().nullable(),
  })
  .meta({ id: "WebhookTestResult" });

export const listDeliveriesMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/webhook-endpoints/{id}/deliveries",
    tags,
    summary: "List an endpoint's deliveries",
    description: 'Newest first, kept 30 days. When more exist, a `Link` header with `rel="next"` gives the next page.',
    protect: true,
  },
  scope: "webhooks:read",
};
export const ZListDeliveriesRequest = ZEndpointPath.extend({
  ...ZPageQuery.shape,
  status: z.enum(DELIVERY_STATUSES).optional().describe("Only deliveries in this status."),
});
export const ZListDeliveriesResponse = z.array(ZWebhookDelivery);

export const redeliverMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/webhook-deliveries/{id}/redeliver",
    tags,
    summary: "Redeliver a delivery",
    description:
      "Sends a delivery again, with the same event id and body and a fresh retry schedule. A delivery still pending is `409` `delivery_pending`.",
    protect: true,
  },
  scope: "webhooks:write",
  errors: ["endpoint_disabled", "delivery_pending"],
};
export const ZRedeliverRequest = z.strictObject({
  id: z.string().describe("Prefix `whd_`.").meta({ example: "whd_0mwq18yo3jJFvnIzUvqf4q" }),
});
export { ZWebhookDelivery as ZRedeliverResponse };

export const triggerEventMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/webhook-events/trigger",
    tags,
    summary: "Trigger a sample test-mode event",
    description:
      "Records a sample event of the name given, in test mode and with made-up ids, in the workspace's event log: it goes to " +
      "the open event streams (`svc listen`, `svc trigger`) and to the test-mode webhook endpoints that take that event, " +
      "like any test-mode event. Test keys only.",
    protect: true,
  },
  scope: "webhooks:write",
  successStatus: 201,
  errors: ["test_key_required"],
};
export const ZTriggerEventRequest = z
  .strictObject({ event: z.enum(EVENT_NAMES).describe("The sample event's name.") })
  .meta({ id: "TriggerEventRequest", examples: [{ event: "mensagem.entregue" }] });
export const ZTriggerEventResponse = z
  .object({
    id: z.string().describe("The event's id (prefix `evt_`): the `id:` of the stream and the `webhook-id` of its deliveries."),
    event: z.string(),
  })
  .meta({ id: "TriggeredEvent" });

export const streamEventsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/webhook-events/stream",
    tags,
    summary: "Stream test-mode events",
    description:
      "Server-Sent Events (`text/event-stream`): each test-mode event of the workspace as it happens, `id:` the event id, " +
      "`event:` its name and `data:` the body a webhook delivery carries. Test keys only; at most 5 streams open per key; a " +
      "stream with no event for an hour is closed. Sent with `Last-Event-ID`, it resumes after that event (one of the last 24 " +
      "hours), missing none. A client that reads nothing for 30 s while events wait is disconnected, after a last " +
      '`stream.closed` message that says why (`data: {"reason": "slow_reader", …}`). `svc listen` reads it and ' +
      "forwards each event, signed, to a local URL.",
    protect: true,
  },
  scope: "webhooks:read",
  stream: true,
  errors: ["test_key_required", "too_many_streams"],
};
export const ZStreamEventsRequest = z.object({
  events: z.string().optional().describe("Comma-separated event names; every event when absent.").meta({ example: "mensagem.entregue" }),
});
export const ZStreamEventsResponse = z
  .string()
  .describe(
    "A `text/event-stream`: `id: <event id>`, `event: <name>`, `data: <delivery body>` per event, and `:` comments to keep it open.",
  );
