import { createRequire } from "node:module";

// D73: what a report mailed to a return path says, read with a maintained MIME parser
// (mailparser, which keeps the `message/delivery-status` part apart with `keepDeliveryStatus`):
// a delivery status notification (RFC 3464: `multipart/report; report-type=delivery-status`)
// or a complaint (ARF, RFC 5965: `report-type=feedback-report`). Anything else is `null`.

/** What this module reads of mailparser's result (the package ships no types). */
type Parsed = {
  headers: Map<string, unknown>;
  attachments: { contentType: string; content: Buffer }[];
};
type ParseOptions = { keepDeliveryStatus: boolean; skipHtmlToText: boolean; skipTextToHtml: boolean; skipTextLinks: boolean };
const { simpleParser } = createRequire(import.meta.url)("mailparser") as {
  simpleParser: (raw: Buffer, options: ParseOptions) => Promise<Parsed>;
};

export type BounceReport =
  | { kind: "bounce"; permanent: boolean; status: string; diagnostic?: string; smtpCode?: number }
  | { kind: "complaint"; feedbackType: string };

/** RFC 3464 / RFC 5965 fields: groups of `Name: value` lines (continuations folded), separated by blank lines. */
export function fieldGroups(text: string): Map<string, string>[] {
  const groups: Map<string, string>[] = [];
  let current = new Map<string, string>();
  let last: string | null = null;
  for (const line of text.replace(/\r\n/g, "\n").split("\n")) {
    if (line.trim() === "") {
      if (current.size) groups.push(current);
      current = new Map();
      last = null;
    } else if (/^[ \t]/.test(line) && last) {
      current.set(last, `${current.get(last)} ${line.trim()}`);
    } else {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      last = line.slice(0, colon).trim().toLowerCase();
      if (!current.has(last)) current.set(last, line.slice(colon + 1).trim());
    }
  }
  if (current.size) groups.push(current);
  return groups;
}

/** The report a mail carries, or null when it is neither a DSN nor an ARF report. */
export async function readReport(raw: Buffer): Promise<BounceReport | null> {
  const mail = await simpleParser(raw, { keepDeliveryStatus: true, skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  const type = mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined;
  if (type?.value?.toLowerCase() !== "multipart/report") return null;
  const reportType = type.params?.["report-type"]?.toLowerCase();
  const part = (contentType: string) => mail.attachments.find((a) => a.contentType.toLowerCase() === contentType)?.content.toString("utf8");

  if (reportType === "feedback-report") {
    const fields = fieldGroups(part("message/feedback-report") ?? "")[0];
    const feedbackType = fields?.get("feedback-type");
    return feedbackType ? { kind: "complaint", feedbackType: feedbackType.toLowerCase().slice(0, 40) } : null;
  }
  if (reportType === "delivery-status") {
    // The first group is about the message; each following one about a recipient.
    const recipients = fieldGroups(part("message/delivery-status") ?? "").slice(1);
    const failed = recipients.find((r) => r.get("action")?.toLowerCase() === "failed");
    const delayed = recipients.find((r) => r.get("action")?.toLowerCase() === "delayed");
    const fields = failed ?? delayed;
    const status = fields?.get("status")?.match(/^[245]\.\d{1,3}\.\d{1,3}/)?.[0];
    if (!fields || !status) return null;
    const diagnostic = fields
      .get("diagnostic-code")
      ?.replace(/^[a-z-]+;\s*/i, "")
      .slice(0, 1000);
    const smtpCode = Number(/^([245]\d\d)\b/.exec(diagnostic ?? "")?.[1] ?? 0) || undefined;
    return { kind: "bounce", permanent: Boolean(failed) && status.startsWith("5"), status, diagnostic, smtpCode };
  }
  return null;
}
