import { z } from "zod";
import { listKeys as list } from "../../../keys/list-keys.ts";
import { workspaceProcedure } from "../../trpc.ts";

// Dashboard only (keys are never managed through the public API: spec "Authentication" 2).
// Without `meta.openapi` a procedure is unreachable with an API key: only the dashboard's
// session-authenticated /api/trpc can call it.
export const listKeys = workspaceProcedure.input(z.void()).query(({ ctx }) => list(ctx.db, ctx.caller.workspaceId));
