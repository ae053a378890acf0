import { z } from "zod";
import { listMembers as list } from "../../../users/list-members.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** The Team page is for admins only: support staff get `403 role_required`. */
export const listMembers = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(z.void())
  .query(({ ctx }) => list(ctx.db, ctx.caller.workspaceId));
