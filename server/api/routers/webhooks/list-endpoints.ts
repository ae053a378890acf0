import { listEndpoints as list } from "../../../webhooks/list-endpoints.ts";
import { workspaceProcedure } from "../../trpc.ts";

// Dashboard only (D30): webhook endpoints are registered in the dashboard, not through the public API.
export const listEndpoints = workspaceProcedure.query(({ ctx }) => list(ctx.db, ctx.caller.workspaceId));
