import { upsertContact as upsert } from "../../../contacts/upsert-contact.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { upsertContactMeta, ZUpsertContactRequest, ZUpsertContactResponse } from "./upsert-contact.types.ts";

export const upsertContact = workspaceProcedure
  .meta(upsertContactMeta)
  .input(ZUpsertContactRequest)
  .output(ZUpsertContactResponse)
  .mutation(({ ctx, input }) => upsert(ctx.db, ctx.caller, input));
