import { createField as create } from "../../../fields/create-field.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { createFieldMeta, ZCreateFieldRequest, ZCreateFieldResponse } from "./create-field.types.ts";

export const createField = workspaceProcedure
  .meta(createFieldMeta)
  .input(ZCreateFieldRequest)
  .output(ZCreateFieldResponse)
  .mutation(({ ctx, input }) => create(ctx.db, ctx.caller.workspaceId, input));
