import type { Database } from "../db/client.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { conflict } from "../lib/errors.ts";
import { takeUnclaimedJob } from "../outbox/jobs.ts";
import { giveBack } from "../usage/quota.ts";
import { callerMode, getMessageOrThrow } from "./get-message.ts";
import { applyReport } from "./apply-report.ts";
import type { Message } from "./message-schemas.ts";

const notCancelable = (why: string) =>
  conflict("message_not_cancelable", `The message cannot be canceled: ${why}. Only a message not yet handed to the provider can be.`, "id");

/**
 * POST /messages/{id}/cancel (D76): a message not yet handed to a provider becomes `canceled`,
 * with `mensagem.cancelada`, and a live one gives back its count against the limits (D25).
 * Race-free against the worker about to send it: the message's job is taken only while no
 * claim holds it (`takeUnclaimedJob`), the way another claim would take it. A worker that
 * claimed it first calls the provider under its lease (D47), so the cancel is refused; a job
 * taken first is never claimed. One transaction, the job's row locked before the message's,
 * in the order the worker's own statements lock them.
 */
export async function cancelMessage(database: Database, caller: CallerInWorkspace, id: string): Promise<Message> {
  // D40: another mode's or workspace's message is a 404 to a key; a dashboard user acts in both modes.
  const mode = await callerMode(database, caller, id);
  const actor = { workspaceId: caller.workspaceId, mode };
  const before = await getMessageOrThrow(database, actor, id);
  if (before.status === "canceled") throw notCancelable("it is already canceled");
  if (before.status !== "queued" || before.direction !== "outbound") throw notCancelable(`it is already ${before.status}`);
  await database.transaction(async (sql) => {
    if (!(await takeUnclaimedJob(sql, actor.workspaceId, id, ["message.dispatch", "message.simulate"]))) {
      throw notCancelable("it is being handed to the provider, or was handed to it already");
    }
    // Who canceled it, for the message's timeline. The status change, its history entry and
    // `mensagem.cancelada` are written by the one writer of status changes.
    const by =
      caller.kind === "user"
        ? { by: "dashboard", user: caller.email }
        : caller.kind === "key"
          ? { by: "api", api_key_id: caller.keyId }
          : {};
    if (!(await applyReport(sql, id, { status: "canceled", kind: "status", detail: by }, actor.workspaceId)))
      throw notCancelable("it is no longer queued");
    if (mode === "live") {
      await giveBack(sql, actor.workspaceId, {
        channel: before.channel,
        acceptedAt: new Date(before.created_at),
        segments: before.sms?.segments ?? null,
      });
    }
  });
  return getMessageOrThrow(database, actor, id);
}
