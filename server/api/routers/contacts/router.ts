import { router } from "../../trpc.ts";
import { contactHistory } from "./contact-history.ts";
import { contactNames } from "./contact-names.ts";
import { eraseContact } from "./erase-contact.ts";
import { findContact } from "./find-contact.ts";
import { getContact } from "./get-contact.ts";
import { getReachability } from "./get-reachability.ts";
import { searchContacts } from "./search-contacts.ts";
import { updateContact } from "./update-contact.ts";
import { upsertContact } from "./upsert-contact.ts";

export const contactsRouter = router({
  upsert: upsertContact,
  find: findContact,
  get: getContact,
  reachability: getReachability,
  search: searchContacts,
  history: contactHistory,
  names: contactNames,
  update: updateContact,
  erase: eraseContact,
});
