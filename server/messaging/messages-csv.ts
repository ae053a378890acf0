import type { Database } from "../db/client.ts";
import { exportMessages, type InspectorRow, type MessageFilter } from "./inspect-messages.ts";

// The inspector's CSV export: one row per message, newest first, the same columns a person
// reads on the page (RFC 4180: comma-separated, CRLF, quoted where needed).

const COLUMNS: [string, (m: InspectorRow) => string | null][] = [
  ["id", (m) => m.id],
  ["created_at", (m) => m.created_at],
  ["status", (m) => m.status],
  ["channel", (m) => m.channel],
  ["mode", (m) => m.mode],
  ["direction", (m) => m.direction],
  ["to", (m) => m.to],
  ["contact_id", (m) => m.contact.id],
  ["contact_name", (m) => m.contact.name],
  ["content_kind", (m) => m.summary?.kind ?? null],
  ["content", (m) => m.summary?.text ?? null],
  ["source", (m) => m.source.kind],
  ["source_name", (m) => (m.source.kind === "api" ? m.source.key_name : m.source.kind === "flow" ? m.source.flow_name : null)],
  ["flow_run_id", (m) => (m.source.kind === "flow" ? m.source.run_id : null)],
  ["error_code", (m) => m.error_code],
  ["error_reason", (m) => m.error_reason],
  ["error", (m) => m.error],
  ["provider_message_id", (m) => m.provider_message_id],
  ["sent_at", (m) => m.sent_at],
  ["delivered_at", (m) => m.delivered_at],
  ["read_at", (m) => m.read_at],
];

/**
 * One CSV value. A text a spreadsheet would run as a formula (=, +, -, @ first) gets a leading
 * apostrophe, except a phone number such as +15550100001.
 */
export function csvValue(value: string | null): string {
  if (value === null) return "";
  const safe = /^[=+\-@\t\r]/.test(value) && !/^\+?\d[\d ]*$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const csvLine = (values: (string | null)[]): string => `${values.map(csvValue).join(",")}\r\n`;

/** The export as a stream of CSV text, read from the database a page at a time as the reader takes it. */
export function messagesCsv(database: Database, workspaceId: string, filter: MessageFilter): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pages = exportMessages(database, workspaceId, filter);
  let header = true;
  return new ReadableStream({
    async pull(controller) {
      if (header) {
        header = false;
        controller.enqueue(encoder.encode(csvLine(COLUMNS.map(([name]) => name))));
        return;
      }
      const page = await pages.next();
      if (page.done) return controller.close();
      controller.enqueue(encoder.encode(page.value.map((m) => csvLine(COLUMNS.map(([, read]) => read(m)))).join("")));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}
