import { router } from "../../trpc.ts";
import { contactHistory } from "./contact-history.ts";
import { findContact } from "./find-contact.ts";
import { getContact } from "./get-contact.ts";
import { searchContacts } from "./search-contacts.ts";
import { updateContact } from "./update-contact.ts";
import { upsertContact } from "./upsert-contact.ts";

export const contactsRouter = router({
  upsert: upsertContact,
  find: findContact,
  get: getContact,
  search: searchContacts,
  history: contactHistory,
  update: updateContact,
});
