import { z } from "zod";
import { enrollContact } from "../../../flows/enroll-contact.ts";
import { ZVariables } from "../../../messaging/message-schemas.ts";
import { workspaceProcedure } from "../../trpc.ts";

/**
 * Dashboard only (admins): enrolls a contact from the flow's page through the API's own
 * enrollment (D18's rules). `mode: "test"` is a test run: the run is a test key's (D40), so
 * its messages are simulated (D35) and count no quota.
 */
export const startRun = workspaceProcedure
  .input(
    z.object({
      flow_id: z.string().min(1).max(64),
      contact_id: z.string().min(1).max(64),
      mode: z.enum(["live", "test"]),
      variables: ZVariables.optional(),
    }),
  )
  .mutation(({ ctx, input }) =>
    enrollContact(ctx.db, { ...ctx.caller, mode: input.mode }, input.flow_id, {
      to: { contact_id: input.contact_id },
      ...(input.variables ? { variables: input.variables } : {}),
    }),
  );
