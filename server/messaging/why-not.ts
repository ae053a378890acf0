import type { Contact } from "../contacts/contact-schemas.ts";
import type { Handle } from "../db/client.ts";
import type { Mode } from "../keys/scopes.ts";
import { AppError, conflict, invalid } from "../lib/errors.ts";
import { isSuppressed } from "../suppressions/suppressions.ts";
import { quotaRefusal } from "../usage/quota.ts";
import { overCap, type Cap } from "./frequency-caps.ts";
import { connectedChannel } from "./connected-channel.ts";
import type { Addressed, ChannelType } from "../channels/channel.ts";
import { channelOf } from "../channels/registry.ts";

// Why a message would not go out: one rule for the three places that ask (D71, D81). The API
// send (`prepareMessage`) answers the first refusal as its error, a flow's send step skips with
// it, and reachability (GET /contacts/{id}/reachability) lists every one that holds now. Each
// refusal carries D81's reason, the error code, words about the contact, and the error
// POST /messages answers for it (none for a frequency cap, which never stops an API send).

/** D81: why a `send` step sent nothing, and why reachability says a message would not go out. */
export const SKIP_REASONS = [
  "no_address",
  "opted_out",
  "recipient_suppressed",
  "whatsapp_window_closed",
  "no_channel",
  "quota_reached",
  "frequency_capped",
  "channel_paused",
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The D81 reason of a send's refusal, from the error code it answered with. */
export function skipReason(code: string): SkipReason {
  switch (code) {
    case "recipient_missing_address":
      return "no_address";
    case "recipient_opted_out":
    case "marketing_opted_out": // D90
      return "opted_out";
    case "recipient_suppressed":
      return "recipient_suppressed";
    case "whatsapp_window_closed":
      return "whatsapp_window_closed";
    case "daily_limit_reached":
    case "monthly_limit_reached":
      return "quota_reached";
    case "frequency_capped":
      return "frequency_capped";
    case "reputation_guard": // D93: journeys paused on the channel, API sends go on
      return "channel_paused";
    default:
      // No connected channel, or none that can send this content (its template gone).
      return "no_channel";
  }
}

/** One thing that stops the message: D81's reason, the code and words, and the API send's error (null: it never stops one). */
export type Refusal = { reason: SkipReason; code: string; message: string; error: AppError | null };

const refusal = (error: AppError, message = error.message): Refusal => ({
  reason: skipReason(error.code),
  code: error.code,
  message,
  error,
});

/** The address a message on `channel` goes to (D88: WhatsApp's is the phone, else the WhatsApp user id). */
export function addressOn(contact: Pick<Contact, "phone" | "email" | "whatsapp_user_id">, channel: ChannelType): string | null {
  return channelOf(channel).addressOf(contact);
}

/**
 * The address a message on `channel` goes to (the contact's phone, else its WhatsApp user id
 * (D88), or its e-mail), or why it cannot
 * go: no address for the channel (400, `param` = `to.phone` or `to.email`), or the contact
 * opted out of it (409, `param` = `to`; D16, D38).
 */
export function deliveryAddress(
  contact: Addressed,
  channel: ChannelType,
): { address: string; refused?: undefined } | { address?: undefined; refused: Refusal } {
  const kind = channelOf(channel);
  const address = kind.addressOf(contact);
  if (!address) {
    const { what, param } = kind.missingAddress;
    const error = invalid("recipient_missing_address", `The recipient has no ${what}.`, param);
    return { refused: refusal(error, `The contact has no ${what}.`) };
  }
  if (kind.optedOut(contact)) {
    const error = conflict("recipient_opted_out", `The recipient opted out of ${channel} messages.`, "to");
    return { refused: refusal(error, `The contact opted out of ${channel} messages.`) };
  }
  return { address };
}

/** D72: a live e-mail to an address on the suppression list. */
export function suppressedError(reason: string) {
  return conflict("recipient_suppressed", `The recipient's address is suppressed (${reason}): e-mail to it is not sent.`, "to.email");
}

export type WhyNotTarget = {
  workspaceId: string;
  mode: Mode;
  channel: ChannelType;
  contact: Addressed & Pick<Contact, "id" | "whatsapp_window_expires_at">;
};

export type WhyNotChecks = {
  /** D72: the suppression the caller read with the contact (POST /messages); read here when undefined. */
  suppressed?: string | null;
  /** D67: a journey message's caps, with the messages its transaction wrote but has not inserted yet. */
  caps?: { caps: Cap[]; pending?: (since: Date) => number };
  /** D43: a free-form message's window. A send checks it with its content (`whatsappContent`). */
  window?: boolean;
  /** D16: a connected channel of the type (live). A send checks the channel it picked. */
  channel?: boolean;
  /** D25: the daily and monthly limits (live), read without counting. A send counts when it writes. */
  quota?: boolean;
  /** Every refusal that holds (reachability) instead of the first (a send). */
  all?: boolean;
  now?: Date;
};

/**
 * Why a message on the target's channel to its contact would not go out now, in D16's order:
 * no address, opt-out, a suppressed address (live e-mail, D72), then those asked for: a closed
 * window, no connected channel, a frequency cap, a reached limit. The first only, unless `all`.
 * Reads through `sql`, so a flow run asks inside its transaction.
 */
export async function whyNot(sql: Handle, to: WhyNotTarget, checks: WhyNotChecks = {}): Promise<Refusal[]> {
  const now = checks.now ?? new Date();
  const found: Refusal[] = [];
  const stop = () => found.length > 0 && !checks.all;
  const { refused } = deliveryAddress(to.contact, to.channel);
  if (refused) found.push(refused);
  // Every later check is of the address, when there is one (opted out of the channel or not).
  const address = addressOn(to.contact, to.channel);
  if (stop()) return found;
  const kind = channelOf(to.channel);
  if (address && kind.suppressible && to.mode === "live") {
    const suppressed = checks.suppressed !== undefined ? checks.suppressed : await isSuppressed(sql, to.workspaceId, "live", address);
    if (suppressed) found.push(refusal(suppressedError(suppressed)));
    if (stop()) return found;
  }
  if (checks.window && address && kind.window && !kind.window.open(to.mode, to.contact, address, now)) {
    found.push(refusal(kind.window.closedError(to.mode, to.contact, `${to.channel}.body`)));
    if (stop()) return found;
  }
  if (checks.channel && to.mode === "live") {
    const missing = await connectedChannel({ sql }, to.workspaceId, to.channel).then(
      () => null,
      (err: unknown) => {
        if (err instanceof AppError) return err;
        throw err;
      },
    );
    if (missing) found.push(refusal(missing));
    if (stop()) return found;
  }
  if (checks.caps?.caps.length) {
    const who = { workspaceId: to.workspaceId, contactId: to.contact.id, mode: to.mode, channel: to.channel };
    if (await overCap(sql, who, checks.caps.caps, now, checks.caps.pending)) {
      const message = `The contact has had as many ${to.channel} messages as the frequency cap allows.`;
      found.push({ reason: "frequency_capped", code: "frequency_capped", message, error: null });
      if (stop()) return found;
    }
  }
  if (checks.quota && to.mode === "live") {
    const limit = await quotaRefusal(sql, to.workspaceId, to.channel, now);
    if (limit) found.push(refusal(limit));
  }
  return found;
}
