import { listFlows } from "../../../flows/list-flows.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: every flow with its run counts. */
export const allFlows = workspaceProcedure.query(({ ctx }) => listFlows(ctx.db, ctx.caller.workspaceId));
