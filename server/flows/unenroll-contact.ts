import { defaultCountry, findContactBy } from "../contacts/get-contact.ts";
import type { Database } from "../db/client.ts";
import type { Sender as Actor } from "../messaging/send-message.ts";
import { normalizeEmail } from "../lib/email.ts";
import { notFound } from "../lib/errors.ts";
import { normalizePhone } from "../lib/phone.ts";
import type { ZUnenrollRequest } from "./flow-schemas.ts";
import { stopRuns } from "./stop-runs.ts";
import type { z } from "zod";

/**
 * POST /flows/{flow_id}/unenroll (D19, D40): stops the contact's active runs of the key's
 * mode in the flow, or in every flow when `flow_id` is `all`. Unknown flow: 404 `flow_id`;
 * a recipient that matches no contact: 404 on the `to` field used (no contact is created). A
 * contact in no journey: 200 with `unenrolled` 0.
 */
export async function unenrollContact(database: Database, actor: Actor, flowId: string, input: z.output<typeof ZUnenrollRequest>) {
  if (flowId !== "all") {
    const flow = await database.prisma.flow.findFirst({ where: { id: flowId, workspaceId: actor.workspaceId }, select: { id: true } });
    if (!flow) throw notFound("flow", "flow_id");
  }
  const contact = await findRecipient(database, actor, input.to);
  const reason = input.reason || null;
  const runs = await database.transaction((sql) =>
    stopRuns(sql, { contactId: contact.id, mode: actor.mode, flowId: flowId === "all" ? null : flowId }, reason),
  );
  return { unenrolled: runs.length, contact_id: contact.id, flow_id: flowId, runs };
}

async function findRecipient(database: Database, actor: Actor, to: { phone?: string; email?: string; contact_id?: string }) {
  if (to.contact_id !== undefined) {
    const found = await findContactBy(database, actor.workspaceId, { id: to.contact_id });
    if (!found) throw notFound("contact", "to.contact_id");
    return found;
  }
  if (to.phone !== undefined) {
    const phone = normalizePhone(to.phone, await defaultCountry(database, actor), "to.phone");
    const found = await findContactBy(database, actor.workspaceId, { phone });
    if (!found) throw notFound("contact", "to.phone");
    return found;
  }
  const found = await findContactBy(database, actor.workspaceId, { email: normalizeEmail(to.email!, "to.email") });
  if (!found) throw notFound("contact", "to.email");
  return found;
}
