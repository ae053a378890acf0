import { updateContact } from "../contacts/upsert-contact.ts";
import type { Database } from "../db/client.ts";
import { AppError } from "../lib/errors.ts";
import { applyReport } from "../messaging/apply-report.ts";
import { wakePipeline } from "../outbox/wake.ts";

// D73: what a bounce or complaint report does to its message, whichever path brought it (the
// events endpoint of D39, the service's SMTP listener, Amazon SES through SNS). The message is
// the one the report names, read with its workspace; the address suppressed is the message's
// own, never one the report claims.

/** Where a report came from and what it said, kept in the message's history (no personal data beyond the message's). */
export type ReportSource = { source: "email_events" | "inbound_smtp" | "ses"; at?: Date; detail?: Record<string, unknown> };

/**
 * A bounce: permanent (`failed` with `error_code` `bounce_hard`, or `smtp_<code>` when the
 * report gives a 5xx status, and the address suppressed as `hard_bounce`), or temporary (the
 * report in the history, nothing else: the relay retries). Whether the message changed.
 */
export async function recordBounce(
  database: Database,
  messageId: string,
  bounce: ReportSource & { permanent: boolean; diagnostic?: string; smtpCode?: number },
): Promise<boolean> {
  const words = bounce.diagnostic?.trim().slice(0, 1000);
  const error = words ? `Bounced: ${words}` : "Bounced.";
  const errorCode = bounce.smtpCode && bounce.smtpCode >= 500 && bounce.smtpCode < 600 ? `smtp_${bounce.smtpCode}` : "bounce_hard";
  const detail = {
    source: bounce.source,
    bounce: bounce.permanent ? "permanent" : "temporary",
    ...(words ? { diagnostic: words } : {}),
    ...(bounce.detail ?? {}),
  };
  const changed = await database.transaction((sql) =>
    applyReport(
      sql,
      messageId,
      bounce.permanent
        ? {
            status: "failed",
            at: bounce.at,
            error,
            errorCode,
            kind: "provider_report",
            detail,
            suppress: { reason: "hard_bounce", detail: words },
          }
        : // A delay notice: the message stays as it is (`sent`), the notice goes to its history.
          { status: "sent", at: bounce.at, kind: "provider_report", detail },
    ),
  );
  if (changed) wakePipeline();
  return changed;
}

/**
 * A complaint (the recipient marked the mail as spam): the address suppressed as `complaint`
 * and the message's contact opted out of e-mail (through the contact rules, so
 * `contato.atualizado` is recorded). The message itself reached the mailbox: `delivered`.
 */
export async function recordComplaint(
  database: Database,
  message: { id: string; workspaceId: string; contactId: string; mode: "test" | "live" },
  complaint: ReportSource & { feedbackType?: string },
): Promise<void> {
  const detail = { source: complaint.source, complaint: complaint.feedbackType ?? "abuse", ...(complaint.detail ?? {}) };
  const changed = await database.transaction((sql) =>
    applyReport(sql, message.id, {
      status: "delivered",
      at: complaint.at,
      kind: "provider_report",
      detail,
      suppress: { reason: "complaint", detail: `Complaint (${complaint.feedbackType ?? "abuse"})` },
    }),
  );
  if (changed) wakePipeline();
  try {
    await updateContact(database, { workspaceId: message.workspaceId, mode: message.mode }, message.contactId, { opt_out_email: true });
  } catch (err) {
    // The contact was erased since: there is nobody left to opt out.
    if (!(err instanceof AppError && err.type === "not_found")) throw err;
  }
}
