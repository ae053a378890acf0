import { env } from "../../../lib/env.ts";
import { AppError } from "../../../lib/errors.ts";
import { createEndpoint } from "../../../webhooks/create-endpoint.ts";
import { deleteEndpoint } from "../../../webhooks/delete-endpoint.ts";
import { listDeliveries } from "../../../webhooks/list-deliveries.ts";
import { listEndpointPage, listEndpoints } from "../../../webhooks/list-endpoints.ts";
import { replayDelivery } from "../../../webhooks/replay-deliveries.ts";
import { rotateSecret } from "../../../webhooks/rotate-secret.ts";
import { firstAttempt, sendTestEvent, triggerEvent } from "../../../webhooks/send-test-event.ts";
import { updateEndpoint } from "../../../webhooks/update-endpoint.ts";
import { getDelivery } from "../../../webhooks/list-deliveries.ts";
import { requestUrl } from "../../request-url.ts";
import { router, workspaceProcedure } from "../../trpc.ts";
import * as T from "./webhook-endpoints.types.ts";

// D77: the dashboard's webhook services, one write each, behind the public API. The services
// name the dashboard's inputs (`endpoint_id`, `delivery_id`) in their errors; here that is the
// path's `id`.

async function onPath<R>(run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError && (err.param === "endpoint_id" || err.param === "delivery_id")) {
      throw new AppError(err.code, err.message, { param: "id" });
    }
    throw err;
  }
}

/** How long `POST …/test` waits for its attempt: the delivery timeout and some. */
const testWaitMs = () => env().webhookTimeoutMs + 5_000;

async function oneEndpoint(ctx: { db: Parameters<typeof listEndpoints>[0]; caller: { workspaceId: string } }, id: string) {
  const found = (await listEndpoints(ctx.db, ctx.caller.workspaceId)).find((e) => e.id === id);
  if (!found) throw new AppError("resource_missing", "No such webhook endpoint.", { param: "id" });
  const { last_24h: _, ...endpoint } = found;
  return endpoint;
}

export const webhookEndpointsRouter = router({
  list: workspaceProcedure
    .meta(T.listEndpointsMeta)
    .input(T.ZListEndpointsRequest)
    .output(T.ZListEndpointsResponse)
    .query(async ({ ctx, input }) => {
      const page = await listEndpointPage(ctx.db, ctx.caller.workspaceId, input, requestUrl(ctx, "/webhook-endpoints"));
      if (page.link) ctx.responseHeaders.Link = page.link;
      return page.items;
    }),
  create: workspaceProcedure
    .meta(T.createEndpointMeta)
    .input(T.ZCreateEndpointRequest)
    .output(T.ZCreatedWebhookEndpoint)
    .mutation(async ({ ctx, input }) => {
      const created = await createEndpoint(ctx.db, ctx.caller.workspaceId, input, ctx.caller);
      return { ...created.endpoint, secret: created.secret };
    }),
  get: workspaceProcedure
    .meta(T.getEndpointMeta)
    .input(T.ZGetEndpointRequest)
    .output(T.ZWebhookEndpoint)
    .query(({ ctx, input }) => oneEndpoint(ctx, input.id)),
  update: workspaceProcedure
    .meta(T.updateEndpointMeta)
    .input(T.ZUpdateEndpointRequest)
    .output(T.ZWebhookEndpoint)
    .mutation(({ ctx, input: { id, ...change } }) =>
      onPath(() => updateEndpoint(ctx.db, ctx.caller.workspaceId, { endpoint_id: id, ...change }, ctx.caller)),
    ),
  delete: workspaceProcedure
    .meta(T.deleteEndpointMeta)
    .input(T.ZDeleteEndpointRequest)
    .output(T.ZDeleteEndpointResponse)
    .mutation(async ({ ctx, input }) => {
      await onPath(() => deleteEndpoint(ctx.db, ctx.caller.workspaceId, input.id, ctx.caller));
      return { id: input.id, deleted: true as const };
    }),
  rotateSecret: workspaceProcedure
    .meta(T.rotateSecretMeta)
    .input(T.ZRotateSecretRequest)
    .output(T.ZRotateSecretResponse)
    .mutation(({ ctx, input }) => onPath(() => rotateSecret(ctx.db, ctx.caller.workspaceId, input.id, ctx.caller))),
  test: workspaceProcedure
    .meta(T.testEndpointMeta)
    .input(T.ZTestEndpointRequest)
    .output(T.ZTestEndpointResponse)
    .mutation(async ({ ctx, input }) => {
      const sent = await onPath(() => sendTestEvent(ctx.db, ctx.caller.workspaceId, { endpoint_id: input.id, event: input.event }));
      const attempt = await firstAttempt(ctx.db, ctx.caller.workspaceId, sent.delivery_id, testWaitMs());
      const status = attempt?.status_code ?? null;
      return {
        ...sent,
        status_code: status,
        duration_ms: attempt?.duration_ms ?? null,
        succeeded: status !== null && status >= 200 && status < 300,
        error: attempt ? (attempt.error ?? null) : "No attempt was made in time; the delivery stays queued.",
      };
    }),
  deliveries: workspaceProcedure
    .meta(T.listDeliveriesMeta)
    .input(T.ZListDeliveriesRequest)
    .output(T.ZListDeliveriesResponse)
    .query(async ({ ctx, input: { id, ...query } }) => {
      const page = await onPath(() =>
        listDeliveries(
          ctx.db,
          ctx.caller.workspaceId,
          { endpoint_id: id, ...query },
          requestUrl(ctx, `/webhook-endpoints/${id}/deliveries`, { status: query.status }),
        ),
      );
      if (page.link) ctx.responseHeaders.Link = page.link;
      return page.items.map(({ last_attempt: _, ...d }) => d);
    }),
  // Served by the REST facade itself (`meta.stream`, server/webhooks/event-stream.ts): a
  // response that stays open. Declared here for its route, scope and place in the document.
  stream: workspaceProcedure
    .meta(T.streamEventsMeta)
    .input(T.ZStreamEventsRequest)
    .output(T.ZStreamEventsResponse)
    .query(() => {
      throw new AppError("route_not_found", "The event stream is served over the REST API only.");
    }),
  trigger: workspaceProcedure
    .meta(T.triggerEventMeta)
    .input(T.ZTriggerEventRequest)
    .output(T.ZTriggerEventResponse)
    .mutation(({ ctx, input }) => {
      if (ctx.caller.kind !== "key" || ctx.caller.mode !== "test") {
        throw new AppError("test_key_required", "This endpoint serves test-mode events: call it with a test key (svc_test_…).");
      }
      return triggerEvent(ctx.db, ctx.caller.workspaceId, input);
    }),
  redeliver: workspaceProcedure
    .meta(T.redeliverMeta)
    .input(T.ZRedeliverRequest)
    .output(T.ZRedeliverResponse)
    .mutation(async ({ ctx, input }) => {
      await onPath(() => replayDelivery(ctx.db, ctx.caller.workspaceId, { delivery_id: input.id }));
      const { body: _, attempts_log: __, ...delivery } = await getDelivery(ctx.db, ctx.caller.workspaceId, { delivery_id: input.id });
      return delivery;
    }),
});
