import { deleteTag as remove } from "../../../tags/delete-tag.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { deleteTagMeta, ZDeleteTagRequest, ZDeleteTagResponse } from "./delete-tag.types.ts";

export const deleteTag = workspaceProcedure
  .meta(deleteTagMeta)
  .input(ZDeleteTagRequest)
  .output(ZDeleteTagResponse)
  .mutation(({ ctx, input }) => remove(ctx.db, ctx.caller.workspaceId, input.id));
