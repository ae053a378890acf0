import { getContactOrThrow } from "../contacts/get-contact.ts";
import type { Database } from "../db/client.ts";

// A contact's WhatsApp conversation for the dashboard's contact page (D43, D44): the messages
// sent to and received from the contact, and the state of its 24-hour window.

export type ConversationMessage = {
  id: string;
  direction: "inbound" | "outbound";
  status: string;
  mode: "test" | "live";
  /** The text as sent or received: a template's body with its parameters filled. */
  text: string | null;
  /** The template's name, for a template message. */
  template: string | null;
  media_type: string | null;
  media_url: string | null;
  error: string | null;
  /** Inbound: when it was marked read at WhatsApp (D91); null while unread. */
  read_at: string | null;
  created_at: string;
};

export type Conversation = {
  /** When the contact's window closes (or closed); null when it never opened. */
  window_expires_at: string | null;
  window_open: boolean;
  /** Oldest first: the newest message is the last. */
  messages: ConversationMessage[];
  /** Whether older messages exist than the first one given. */
  more: boolean;
};

type Content = {
  body?: unknown;
  text?: unknown;
  media_type?: unknown;
  media_url?: unknown;
  template?: { name?: unknown };
};

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** The latest `limit` WhatsApp messages of the contact (both directions, both modes) and its window. */
export async function contactConversation(
  database: Database,
  workspaceId: string,
  contactId: string,
  limit: number,
): Promise<Conversation> {
  const contact = await getContactOrThrow(database, workspaceId, contactId);
  const rows = await database.prisma.message.findMany({
    where: { workspaceId, contactId, channel: "whatsapp" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: { id: true, direction: true, status: true, mode: true, content: true, error: true, readAt: true, createdAt: true },
  });
  const expires = contact.whatsapp_window_expires_at;
  return {
    window_expires_at: expires,
    window_open: expires !== null && new Date(expires).getTime() > Date.now(),
    more: rows.length > limit,
    messages: rows
      .slice(0, limit)
      .reverse()
      .map((m) => {
        const c = (m.content ?? {}) as Content;
        return {
          id: m.id,
          direction: m.direction === "inbound" ? "inbound" : "outbound",
          status: m.status,
          mode: m.mode,
          text: str(c.body) ?? str(c.text),
          template: str(c.template?.name),
          media_type: str(c.media_type),
          media_url: str(c.media_url),
          error: m.error,
          read_at: m.readAt?.toISOString() ?? null,
          created_at: m.createdAt.toISOString(),
        };
      }),
  };
}
