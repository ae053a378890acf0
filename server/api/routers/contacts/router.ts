import { router } from "../../trpc.ts";
import { findContact } from "./find-contact.ts";
import { getContact } from "./get-contact.ts";
import { upsertContact } from "./upsert-contact.ts";

export const contactsRouter = router({ upsert: upsertContact, find: findContact, get: getContact });
