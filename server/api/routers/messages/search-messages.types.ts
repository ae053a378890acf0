import { z } from "zod";
import { CHANNELS, MESSAGE_STATUSES } from "../../../messaging/message-schemas.ts";

/** The inspector's filters (dashboard only): its pages and its CSV export take the same. */
export const ZMessageSearch = z.object({
  q: z.string().max(200).optional(),
  status: z.enum(MESSAGE_STATUSES).optional(),
  channel: z.enum(CHANNELS).optional(),
  mode: z.enum(["test", "live"]).optional(),
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
  contact_id: z.string().min(1).max(64).optional(),
});
