import type { RecipientDraft } from "./resolve-recipient.ts";
import type { Database } from "../db/client.ts";
import { AppError, fromZodError } from "../lib/errors.ts";
import type { CallerInWorkspace } from "../lib/caller.ts";
import { upsertContact } from "../contacts/upsert-contact.ts";
import { acceptMessage } from "./insert-messages.ts";
import { ZSendMessageRequest, type Message } from "./message-schemas.ts";
import { prepareMessage } from "./send-message.ts";

/** D75: how many messages one batch takes. */
export const BATCH_MAX = 1_000;

/** One item of a batch's answer: the message accepted, or why not (its `param` prefixed by `messages.<index>.`). */
export type BatchItem = Message | AppError;

/**
 * POST /messages/batch (D75, D86): each item is checked as `POST /messages` checks it, and
 * the items that pass are written together, in their order, through the same group commit
 * as single sends (`acceptMessage`, whose calls of one tick share a statement): the live ones
 * of a workspace, channel and day are counted against the limits in one statement, in order,
 * so the first that fit are accepted and each later one gets the limit it met. Items are
 * answered in order; an item's fault is its own, and the others are still accepted.
 */
export async function sendBatch(
  database: Database,
  sender: Pick<CallerInWorkspace, "workspaceId" | "mode" | "defaultCountry" | "templatesVersion">,
  items: readonly unknown[],
  opts: { apiKeyId?: string | null } = {},
): Promise<BatchItem[]> {
  // Items to one new recipient create its contact once (D15), not once per item.
  const created = new Map<string, Promise<{ id: string }>>();
  const createContact = (draft: RecipientDraft) => {
    const address = draft.phone ?? draft.whatsapp_user_id ?? draft.email ?? "";
    let contact = created.get(address);
    if (!contact) created.set(address, (contact = upsertContact(database, sender, draft)));
    return contact;
  };
  const prepared = await Promise.all(
    items.map(async (item, i) => {
      const parsed = ZSendMessageRequest.safeParse(item);
      if (!parsed.success) return itemError(fromZodError(parsed.error)!, i);
      // D71: a dry run is POST /messages' alone; an item that asks for one is refused, never sent.
      if (parsed.data.dry_run !== undefined) {
        const message = "dry_run is not a parameter of a batch item: check a message with POST /messages and dry_run instead.";
        return itemError(new AppError("unknown_parameter", message, { param: "dry_run" }), i);
      }
      return prepareMessage(database, sender, parsed.data, { ...opts, createContact }).catch((err: unknown) => itemError(err, i));
    }),
  );
  // Every write is asked for in this one tick, in the items' order: they share statements.
  return Promise.all(
    prepared.map((p, i) =>
      p instanceof AppError
        ? p
        : acceptMessage(database, p.accepted).then(
            () => p.view,
            (err: unknown) => itemError(err, i),
          ),
    ),
  );
}

/** An item's error with its `param` (and the message that names it) under `messages.<index>`; other errors fail the batch. */
function itemError(err: unknown, index: number): AppError {
  if (!(err instanceof AppError)) throw err;
  const prefix = `messages.${index}`;
  const param = err.param ? `${prefix}.${err.param}` : prefix;
  const message = err.param && err.message.startsWith(`${err.param}:`) ? `${prefix}.${err.message}` : err.message;
  return new AppError(err.code, message, { param });
}
