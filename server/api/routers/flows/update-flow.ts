import { z } from "zod";
import type { FlowDefinitionInput } from "../../../flows/flow-schemas.ts";
import { updateFlow as update } from "../../../flows/save-flow.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Admins only; a changed flow that has left draft gets a new version (D37). */
export const updateFlow = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ flow_id: z.string().min(1).max(64), definition: z.unknown() }))
  .mutation(({ ctx, input }) => update(ctx.db, ctx.caller.workspaceId, input.flow_id, input.definition as FlowDefinitionInput, ctx.caller));
