import { router } from "../../trpc.ts";
import { contactEvents } from "./contact-events.ts";
import { listEvents } from "./list-events.ts";
import { recordEvent } from "./record-event.ts";

export const eventsRouter = router({
  record: recordEvent,
  list: listEvents,
  contactEvents,
});
