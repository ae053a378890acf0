import { eraseContact as erase } from "../../../contacts/erase-contact.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { eraseContactMeta, ZEraseContactRequest, ZEraseContactResponse } from "./erase-contact.types.ts";

export const eraseContact = workspaceProcedure
  .meta(eraseContactMeta)
  .input(ZEraseContactRequest)
  .output(ZEraseContactResponse)
  .mutation(({ ctx, input }) => erase(ctx.db, ctx.caller, input.id));
