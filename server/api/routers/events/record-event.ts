import { recordContactEvent } from "../../../contact-events/record-contact-event.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { recordEventMeta, ZRecordEventRequest, ZRecordEventResponse } from "./record-event.types.ts";

export const recordEvent = workspaceProcedure
  .meta(recordEventMeta)
  .input(ZRecordEventRequest)
  .output(ZRecordEventResponse)
  .mutation(async ({ ctx, input }) => {
    const { event, replayed } = await recordContactEvent(ctx.db, ctx.caller, input, ctx.idempotency);
    // D61: an event whose client id was seen answers the first one, as a replayed request does.
    if (replayed) ctx.responseHeaders["Idempotent-Replayed"] = "true";
    return event;
  });
