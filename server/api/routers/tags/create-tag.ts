import { createTag as create } from "../../../tags/create-tag.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { createTagMeta, ZCreateTagRequest, ZCreateTagResponse } from "./create-tag.types.ts";

export const createTag = workspaceProcedure
  .meta(createTagMeta)
  .input(ZCreateTagRequest)
  .output(ZCreateTagResponse)
  .mutation(({ ctx, input }) => create(ctx.db, ctx.caller.workspaceId, input));
