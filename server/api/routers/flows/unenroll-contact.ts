import { unenrollContact as unenroll } from "../../../flows/unenroll-contact.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { unenrollContactMeta, ZUnenrollContactRequest, ZUnenrollContactResponse } from "./unenroll-contact.types.ts";

export const unenrollContact = workspaceProcedure
  .meta(unenrollContactMeta)
  .input(ZUnenrollContactRequest)
  .output(ZUnenrollContactResponse)
  .mutation(({ ctx, input }) => unenroll(ctx.db, ctx.caller, input.flow_id, input));
