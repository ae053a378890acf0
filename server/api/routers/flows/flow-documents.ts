import { getFlow } from "../../../flows/get-flow.ts";
import type { FlowDefinitionInput } from "../../../flows/flow-schemas.ts";
import { listFlowVersions } from "../../../flows/flow-versions.ts";
import { createFlow, updateFlow } from "../../../flows/save-flow.ts";
import { setFlowStatus } from "../../../flows/set-flow-status.ts";
import type { Database } from "../../../db/client.ts";
import { requestUrl } from "../../request-url.ts";
import { workspaceProcedure } from "../../trpc.ts";
import * as T from "./flow-documents.types.ts";

// D98: flows over REST, on the services the dashboard and `svc flow import` use.

/** The flow as GET /flows/{flow_id} answers it (the dashboard's `definition` is the API's `document`). */
async function withDocument(database: Database, workspaceId: string, flowId: string) {
  const { definition, ...flow } = await getFlow(database, workspaceId, flowId);
  return { ...flow, document: definition };
}

export const createFlowDocument = workspaceProcedure
  .meta(T.createFlowMeta)
  .input(T.ZCreateFlowRequest)
  .output(T.ZFlowWithDocument)
  .mutation(
    async ({ ctx, input }) =>
      (await createFlow(ctx.db, ctx.caller.workspaceId, input as FlowDefinitionInput, ctx.caller, ctx.idempotency)).flow,
  );

export const getFlowDocument = workspaceProcedure
  .meta(T.getFlowDocumentMeta)
  .input(T.ZGetFlowDocumentRequest)
  .output(T.ZFlowWithDocument)
  .query(({ ctx, input }) => withDocument(ctx.db, ctx.caller.workspaceId, input.flow_id));

export const replaceFlow = workspaceProcedure
  .meta(T.replaceFlowMeta)
  .input(T.ZReplaceFlowRequest)
  .output(T.ZFlowWithDocument)
  .mutation(async ({ ctx, input: { flow_id, ...document } }) => {
    await updateFlow(ctx.db, ctx.caller.workspaceId, flow_id, document as FlowDefinitionInput, ctx.caller);
    return withDocument(ctx.db, ctx.caller.workspaceId, flow_id);
  });

export const setFlowStatusApi = workspaceProcedure
  .meta(T.setFlowStatusMeta)
  .input(T.ZSetFlowStatusRequest)
  .output(T.ZFlowWithDocument)
  .mutation(async ({ ctx, input }) => {
    await setFlowStatus(ctx.db, ctx.caller.workspaceId, input.flow_id, input.status, ctx.caller);
    return withDocument(ctx.db, ctx.caller.workspaceId, input.flow_id);
  });

export const listVersions = workspaceProcedure
  .meta(T.listFlowVersionsMeta)
  .input(T.ZListFlowVersionsRequest)
  .output(T.ZFlowVersions)
  .query(async ({ ctx, input: { flow_id, ...query } }) => {
    const page = await listFlowVersions(ctx.db, ctx.caller.workspaceId, flow_id, query, requestUrl(ctx, `/flows/${flow_id}/versions`));
    if (page.link) ctx.responseHeaders.Link = page.link;
    return page.items;
  });
