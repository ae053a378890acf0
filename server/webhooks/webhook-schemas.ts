import { z } from "zod";
import type { Prisma } from "../generated/prisma/client.ts";
import { EVENT_NAMES } from "../events/event-names.ts";

// Inputs and views of webhook endpoints and their deliveries (D30 to D33), for the dashboard,
// the CLI and the public API (D77, server/api/routers/webhook-endpoints/).

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const ZUrl = z.string().trim().min(1).max(2048);
const ZEvents = z.array(z.enum(EVENT_NAMES)).max(EVENT_NAMES.length);

export const ZCreateEndpointRequest = z.object({
  url: ZUrl,
  /** Empty or absent: every event (D30). */
  events: ZEvents.optional(),
  description: z.string().trim().max(200).optional(),
});
export type CreateEndpointRequest = z.input<typeof ZCreateEndpointRequest>;

export const ZUpdateEndpointRequest = z.object({
  endpoint_id: z.string().min(1).max(64),
  url: ZUrl.optional(),
  events: ZEvents.optional(),
  description: z.string().trim().max(200).nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateEndpointRequest = z.input<typeof ZUpdateEndpointRequest>;

export const ZEndpointId = z.object({ endpoint_id: z.string().min(1).max(64) });
export const ZDeliveryId = z.object({ delivery_id: z.string().min(1).max(64) });

export const ZSendTestEventRequest = ZEndpointId.extend({ event: z.enum(EVENT_NAMES).default("contato.criado") });
export const ZTriggerEventRequest = z.strictObject({ event: z.enum(EVENT_NAMES) });

export const ZListDeliveriesRequest = ZEndpointId.extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
  limit: z.number().int().min(1).max(1000).default(25),
  after: z.string().min(1).max(64).optional(),
});

export const ZReplayRangeRequest = ZEndpointId.extend({ from: z.iso.datetime(), to: z.iso.datetime() });

export const ENDPOINT_SELECT = {
  id: true,
  url: true,
  description: true,
  events: true,
  enabled: true,
  disabledReason: true,
  disabledAt: true,
  failingSince: true,
  createdAt: true,
  secrets: { select: { createdAt: true, expiresAt: true }, orderBy: { id: "desc" } },
} as const;

export type EndpointRow = Prisma.WebhookEndpointGetPayload<{ select: typeof ENDPOINT_SELECT }>;

/** What the dashboard shows of an endpoint: never a secret, only when each became valid or expires. */
export function endpointView(row: EndpointRow, now = new Date()) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.disabledReason as "manual" | "failing" | null,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    failing_since: row.failingSince?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    secrets: row.secrets
      .filter((s) => !s.expiresAt || s.expiresAt > now)
      .map((s) => ({ created_at: s.createdAt.toISOString(), expires_at: s.expiresAt?.toISOString() ?? null })),
  };
}
export type EndpointView = ReturnType<typeof endpointView>;
