import type { Message } from "@/server/messaging/message-schemas.ts";

export type MessageStatus = Message["status"];

export const STATUSES: MessageStatus[] = ["queued", "sent", "delivered", "read", "failed", "received", "canceled"];

/** Statuses a message never leaves (D8): its page stops refreshing there. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(["read", "failed", "received", "canceled"]);

/** A message status as a colored badge. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}

/** A key's mode (a message belongs to the mode of the key that sent it, D40). */
export function ModeBadge({ mode }: { mode: string }) {
  return <span className={`badge ${mode}`}>{mode}</span>;
}
