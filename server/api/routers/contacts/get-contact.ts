import { getContactOrThrow } from "../../../contacts/get-contact.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { getContactMeta, ZGetContactRequest, ZGetContactResponse } from "./get-contact.types.ts";

export const getContact = workspaceProcedure
  .meta(getContactMeta)
  .input(ZGetContactRequest)
  .output(ZGetContactResponse)
  .query(({ ctx, input }) => getContactOrThrow(ctx.db, ctx.caller.workspaceId, input.id));
