import { listAuditEvents, ZListAuditEventsRequest } from "../../../audit/list-audit-events.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** The audit log, newest first (admins only). */
export const listEvents = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZListAuditEventsRequest)
  .query(({ ctx, input }) => listAuditEvents(ctx.db, ctx.caller.workspaceId, input));
