import { enrollContact as enroll } from "../../../flows/enroll-contact.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { enrollContactMeta, ZEnrollContactRequest, ZEnrollContactResponse } from "./enroll-contact.types.ts";

export const enrollContact = workspaceProcedure
  .meta(enrollContactMeta)
  .input(ZEnrollContactRequest)
  .output(ZEnrollContactResponse)
  .mutation(({ ctx, input }) => enroll(ctx.db, ctx.caller, input.flow_id, input, ctx.idempotency));
