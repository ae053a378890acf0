import type { FlowDefinitionInput } from "../../../flows/flow-schemas.ts";
import { previewEdit as preview } from "../../../flows/move-runs.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { previewEditMeta, ZPreviewEditRequest, ZPreviewEditResponse } from "./preview-edit.types.ts";

export const previewEdit = workspaceProcedure
  .meta(previewEditMeta)
  .input(ZPreviewEditRequest)
  .output(ZPreviewEditResponse)
  .mutation(({ ctx, input }) => {
    const { flow_id, ...document } = input;
    return preview(ctx.db, ctx.caller, flow_id as string, document as FlowDefinitionInput);
  });
