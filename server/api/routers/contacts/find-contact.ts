import { findContact as find } from "../../../contacts/get-contact.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { findContactMeta, ZFindContactRequest, ZFindContactResponse } from "./find-contact.types.ts";

export const findContact = workspaceProcedure
  .meta(findContactMeta)
  .input(ZFindContactRequest)
  .output(ZFindContactResponse)
  .query(({ ctx, input }) => find(ctx.db, ctx.caller, input));
