import { z } from "zod";
import { createFlow as create } from "../../../flows/save-flow.ts";
import type { FlowDefinitionInput } from "../../../flows/flow-schemas.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Admins only. The document is checked by the service (D37), so its faults carry their path. */
export const createFlow = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.object({ definition: z.unknown() }))
  .mutation(({ ctx, input }) => create(ctx.db, ctx.caller.workspaceId, input.definition as FlowDefinitionInput, ctx.caller));
