import type { Database } from "../db/client.ts";
import { invalid, notFound } from "../lib/errors.ts";
import { resolveRecipient } from "../messaging/resolve-recipient.ts";
import type { ZUnenrollRequest } from "./flow-schemas.ts";
import { stopRuns } from "./stop-runs.ts";
import type { z } from "zod";
import type { CallerInWorkspace } from "../lib/caller.ts";

/**
 * POST /flows/{flow_id}/unenroll (D19, D40, D66): stops the contact's active runs of the key's
 * mode in the flow, or in every flow when `flow_id` is `all`; with `key`, only the runs with
 * that key, and without `to`, those of every contact. Unknown flow: 404 `flow_id`; a recipient
 * that matches no contact: 404 on the `to` field used (no contact is created). Nothing to
 * stop: 200 with `unenrolled` 0.
 */
export async function unenrollContact(
  database: Database,
  actor: Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry" | "templatesVersion">,
  flowId: string,
  input: z.output<typeof ZUnenrollRequest>,
) {
  if (flowId !== "all") {
    const flow = await database.prisma.flow.findFirst({ where: { id: flowId, workspaceId: actor.workspaceId }, select: { id: true } });
    if (!flow) throw notFound("flow", "flow_id");
  }
  if (input.to === undefined && input.key === undefined) throw invalid("parameter_missing", "Give `to`, `key` or both.", "to");
  let contactId: string | null = null;
  if (input.to !== undefined) {
    // D15's lookup, without creating anyone: a recipient that matches no contact is a 404 on its field.
    const recipient = await resolveRecipient(database, actor, input.to);
    if (!recipient.exists)
      throw notFound(
        "contact",
        `to.${input.to.phone !== undefined ? "phone" : input.to.whatsapp_user_id !== undefined ? "whatsapp_user_id" : "email"}`,
      );
    contactId = recipient.contact.id;
  }
  const reason = input.reason || null;
  const runs = await database.transaction((sql) =>
    stopRuns(
      sql,
      { workspaceId: actor.workspaceId, contactId, key: input.key ?? null, mode: actor.mode, flowId: flowId === "all" ? null : flowId },
      reason,
    ),
  );
  return { unenrolled: runs.length, contact_id: contactId, flow_id: flowId, runs };
}
