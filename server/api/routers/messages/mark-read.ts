import { markRead as mark } from "../../../messaging/mark-read.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { markReadMeta, ZMarkReadRequest, ZMarkReadResponse } from "./mark-read.types.ts";

/** D91: admins and support agents alike mark what they read (the dashboard's conversation view). */
export const markRead = workspaceProcedure
  .meta({ ...markReadMeta, roles: ["admin", "support"] })
  .input(ZMarkReadRequest)
  .output(ZMarkReadResponse)
  .mutation(({ ctx, input }) => mark(ctx.db, ctx.caller, input.id, input.typing));
