import { findContact as find } from "../../../contacts/get-contact.ts";
import { listContacts } from "../../../contacts/list-contacts.ts";
import { requestUrl } from "../../request-url.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { findContactMeta, LIST_ONLY, ZFindContactRequest, ZFindContactResponse } from "./find-contact.types.ts";

// D99 beside D13 (and D88): `phone`, `email` or `whatsapp_user_id` alone finds the one contact (the contract's lookup, kept
// for the integrations written against it); anything else lists.
export const findContact = workspaceProcedure
  .meta(findContactMeta)
  .input(ZFindContactRequest)
  .output(ZFindContactResponse)
  .query(async ({ ctx, input }) => {
    const lookup =
      (input.phone !== undefined || input.email !== undefined || input.whatsapp_user_id !== undefined) &&
      LIST_ONLY.every((k) => input[k] === undefined);
    if (lookup) return find(ctx.db, ctx.caller, input);
    const { limit = 100, ...filters } = input;
    const page = await listContacts(
      ctx.db,
      ctx.caller,
      { ...filters, limit },
      requestUrl(ctx, "/contacts", { ...filters, after: undefined }),
    );
    if (page.link) ctx.responseHeaders.Link = page.link;
    return page.items;
  });
