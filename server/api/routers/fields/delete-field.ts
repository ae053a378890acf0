import { deleteField as remove } from "../../../fields/delete-field.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { deleteFieldMeta, ZDeleteFieldRequest, ZDeleteFieldResponse } from "./delete-field.types.ts";

export const deleteField = workspaceProcedure
  .meta(deleteFieldMeta)
  .input(ZDeleteFieldRequest)
  .output(ZDeleteFieldResponse)
  .mutation(({ ctx, input }) => remove(ctx.db, ctx.caller.workspaceId, input.id));
