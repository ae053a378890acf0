import { contactView, prismaOptOuts } from "../contacts/contact-schemas.ts";
import type { Database } from "../db/client.ts";
import type { EventName } from "../events/event-names.ts";
import { insertEvent } from "../events/record-event.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { EVENT_OF } from "../messaging/transitions.ts";
import { insertJob } from "../outbox/jobs.ts";
import { wakePipeline } from "../outbox/wake.ts";
import { insertTestDelivery } from "./deliveries.ts";
import { eventBody } from "./event-body.ts";
import { ZSendTestEventRequest } from "./webhook-schemas.ts";
import type { z } from "zod";
import type { Columns } from "../db/rows.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { ZTriggerEventRequest } from "./webhook-schemas.ts";

/**
 * "Send test event" of the dashboard: one delivery, to this endpoint only, of a sample event
 * of the chosen name with `mode: "test"` and made-up ids. It goes through the pipeline like
 * any delivery (signature, retries, log), but is not in the event log: nothing happened.
 */
export async function sendTestEvent(database: Database, workspaceId: string, request: z.input<typeof ZSendTestEventRequest>) {
  const input = ZSendTestEventRequest.parse(request);
  const endpoint = await database.prisma.webhookEndpoint.findFirst({
    where: { id: input.endpoint_id, workspaceId },
    select: { id: true, enabled: true },
  });
  if (!endpoint) throw notFound("webhook endpoint", "endpoint_id");
  if (!endpoint.enabled) throw conflict("endpoint_disabled", "The endpoint is disabled; enable it to send it events.", "endpoint_id");
  const eventId = newId("event");
  const deliveryId = newId("delivery");
  const body = eventBody(
    {
      id: eventId,
      name: input.event,
      mode: "test",
      workspace_id: workspaceId,
      data: sampleData(input.event),
      created_at: new Date(),
    },
    { test: true },
  );
  await database.transaction(async (sql) => {
    await insertTestDelivery(sql, { id: deliveryId, workspaceId, endpointId: endpoint.id, eventId, eventName: input.event, body });
    await insertJob(sql, "webhook.deliver", { endpoint_id: endpoint.id }, { subjectId: deliveryId, workspaceId });
  });
  wakePipeline();
  return { delivery_id: deliveryId, event_id: eventId };
}

/**
 * `svc trigger EVENT` (`POST /webhook-events/trigger`): a sample test-mode event of that name,
 * with made-up ids, recorded in the workspace's event log like any event. So it reaches
 * what any test-mode event reaches: the event stream (`svc listen`) and the test-mode webhook
 * endpoints that take it. A live key is refused: nothing happened in live mode.
 */
export async function triggerEvent(database: Database, workspaceId: string, request: z.input<typeof ZTriggerEventRequest>) {
  const input = ZTriggerEventRequest.parse(request);
  const id = await database.transaction((sql) =>
    insertEvent(sql, { workspaceId, mode: "test", name: input.event, data: sampleData(input.event) as Prisma.InputJsonObject }),
  );
  wakePipeline();
  return { id, event: input.event };
}

/**
 * The first attempt of a test delivery (D77's `POST /webhook-endpoints/{id}/test` answers it):
 * read every 100 ms until the pipeline records it, for at most `timeoutMs`; null past it.
 */
export async function firstAttempt(database: Database, workspaceId: string, deliveryId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A failed attempt is a row of the log; one that succeeded is kept on the delivery.
    const [row] = await database.query<Columns<"webhook_attempts", "status_code" | "duration_ms" | "error">>(
      `(SELECT status_code, duration_ms, error FROM webhook_attempts WHERE workspace_id = $2 AND delivery_id = $1 ORDER BY id LIMIT 1)
       UNION ALL
       (SELECT last_status_code, succeeded_duration_ms, NULL FROM webhook_deliveries WHERE workspace_id = $2 AND id = $1 AND succeeded_at IS NOT NULL)
       LIMIT 1`,
      [deliveryId, workspaceId],
    );
    if (row || Date.now() > deadline) return row ?? null;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Data shaped as D31 says for each kind of event, with sample ids. */
function sampleData(event: EventName): Record<string, unknown> {
  const contact = newId("contact");
  if (event.startsWith("mensagem.")) {
    const status = Object.entries(EVENT_OF).find(([, name]) => name === event)?.[0];
    return {
      id: newId("message"),
      channelType: "whatsapp",
      status,
      contact,
      ...(event === "mensagem.falhou" ? { error: "Sample failure: the recipient is not on WhatsApp.", error_code: "131026" } : {}),
    };
  }
  if (event.startsWith("canal.")) {
    const paused = event === "canal.pausado";
    return {
      channel_id: newId("channel"),
      type: "whatsapp",
      status: paused ? "paused" : "connected",
      reason: "payment",
      ...(paused ? { paused_at: new Date().toISOString() } : {}),
    };
  }
  if (event.startsWith("fluxo.")) {
    const stopped = event === "fluxo.parado";
    return {
      id: newId("run"),
      flow_id: newId("flow"),
      contact,
      status: stopped ? "stopped" : "completed",
      ...(stopped ? { reason: "sample" } : {}),
    };
  }
  const now = new Date();
  return contactView({
    id: contact,
    phone: "+5511999990000",
    email: "sample@example.com",
    whatsappUserId: null,
    whatsappUsername: null,
    name: "Sample Contact",
    fields: {},
    ...prismaOptOuts(() => false),
    whatsappMarketingOptOut: false,
    timeZone: null,
    whatsappWindowExpiresAt: null,
    createdAt: now,
    updatedAt: now,
    tags: [],
  });
}
