import { z } from "zod";
import { listAuditActors } from "../../../audit/list-audit-events.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** The choices of the audit page's actor filter (admins only). */
export const listActors = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.void())
  .query(({ ctx }) => listAuditActors(ctx.db, ctx.caller.workspaceId));
