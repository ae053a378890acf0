import { z } from "zod";
import { ZUpsertContactRequest } from "../../../contacts/contact-schemas.ts";
import { updateContact as update } from "../../../contacts/upsert-contact.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only (admins): edit one contact by id through the same rules as the API upsert. */
export const updateContact = workspaceProcedure
  .meta({ roles: ["admin"] })
  .input(ZUpsertContactRequest.extend({ id: z.string() }))
  .mutation(({ ctx, input }) => {
    const { id, ...patch } = input;
    return update(ctx.db, ctx.caller, id, patch);
  });
