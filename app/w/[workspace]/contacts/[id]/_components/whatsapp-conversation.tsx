"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFault } from "@/app/_components/api-error.ts";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { ConversationMessage } from "@/server/whatsapp/conversation.ts";
import "@/app/styles/whatsapp.css";
import { QueryState } from "@/app/_components/query-state.tsx";

const time = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** "14:32", or with the date when it is not today. */
function shortTime(iso: string): string {
  const date = new Date(iso);
  return date.toDateString() === new Date().toDateString() ? time.format(date) : dateTime.format(date);
}

/**
 * The contact's WhatsApp conversation: messages received and sent as one thread, the newest at
 * the bottom, and the state of its 24-hour window (free-form messages need it open; outside
 * it only an approved template goes out).
 */
export function WhatsAppConversation({ contactId }: { contactId: string }) {
  const trpc = useTRPC();
  const conversation = useQuery(trpc.whatsapp.conversation.queryOptions({ contact_id: contactId }));
  return (
    <section className="section" aria-labelledby="whatsapp-conversation">
      <h2 id="whatsapp-conversation">WhatsApp conversation</h2>
      <QueryState query={conversation} what="the conversation" />
      {conversation.data && (
        <>
          <WindowState open={conversation.data.window_open} expiresAt={conversation.data.window_expires_at} />
          <MarkRead contactId={contactId} unread={conversation.data.messages.filter((m) => m.direction === "inbound" && !m.read_at)} />
          {conversation.data.messages.length === 0 ? (
            <p className="empty">No WhatsApp messages with this contact yet.</p>
          ) : (
            <>
              {conversation.data.more && <p className="muted hint">Older messages are in the message inspector.</p>}
              <ol className="thread" aria-label="Messages, oldest first">
                {conversation.data.messages.map((m) => (
                  <Bubble key={m.id} message={m} />
                ))}
              </ol>
            </>
          )}
        </>
      )}
    </section>
  );
}

/**
 * Marks the received messages read at WhatsApp (the sender sees blue ticks), when the agent
 * says so: opening a contact's page to look something up should not tell the customer their
 * message was read.
 */
function MarkRead({ contactId, unread }: { contactId: string; unread: ConversationMessage[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const read = useMutation(trpc.messages.read.mutationOptions());
  const markAll = useMutation({
    mutationFn: async () => {
      for (const m of unread) await read.mutateAsync({ id: m.id });
    },
    onSettled: () => queryClient.invalidateQueries(trpc.whatsapp.conversation.queryFilter({ contact_id: contactId })),
  });
  if (unread.length === 0 && !markAll.isError) return null;
  return (
    <div className="mark-read">
      {unread.length > 0 && (
        <>
          <p role="status">{unread.length === 1 ? "1 received message is unread." : `${unread.length} received messages are unread.`}</p>
          <button type="button" className="button small" disabled={markAll.isPending} onClick={() => markAll.mutate()}>
            {markAll.isPending ? "Marking read…" : "Mark as read"}
          </button>
        </>
      )}
      {markAll.isError && (
        <p role="alert" className="error">
          Could not mark the messages read: {apiFault(markAll.error).message}
        </p>
      )}
    </div>
  );
}

function WindowState({ open, expiresAt }: { open: boolean; expiresAt: string | null }) {
  return (
    <p className={open ? "window-state open" : "window-state closed"} aria-label="24-hour window">
      {open && expiresAt ? (
        <>
          <strong>Open until </strong>
          <time dateTime={expiresAt} title={expiresAt}>
            {shortTime(expiresAt)}
          </time>
          <span className="muted">: free-form messages can be sent.</span>
        </>
      ) : (
        <>
          <strong>Closed: a template is needed.</strong>{" "}
          <span className="muted">
            {expiresAt ? (
              <>
                It closed at{" "}
                <time dateTime={expiresAt} title={expiresAt}>
                  {shortTime(expiresAt)}
                </time>
                , 24 hours after the contact last wrote.
              </>
            ) : (
              "The contact has not written on WhatsApp yet."
            )}
          </span>
        </>
      )}
    </p>
  );
}

function Bubble({ message: m }: { message: ConversationMessage }) {
  const inbound = m.direction === "inbound";
  return (
    <li className={inbound ? "bubble inbound" : "bubble outbound"}>
      <span className="visually-hidden">{inbound ? "Received: " : "Sent: "}</span>
      {m.template && (
        <span className="bubble-label">
          Template <code>{m.template}</code>
        </span>
      )}
      {m.text && <p className="bubble-text">{m.text}</p>}
      {m.media_type && (
        <p className="bubble-media">
          {m.media_url ? (
            <a href={m.media_url} rel="noreferrer noopener" target="_blank">
              {m.media_type}
            </a>
          ) : (
            <span className="muted">[{m.media_type}]</span>
          )}
        </p>
      )}
      {!m.text && !m.media_type && !m.template && <p className="muted bubble-text">(no text)</p>}
      <span className="bubble-meta">
        <time dateTime={m.created_at} title={m.created_at}>
          {shortTime(m.created_at)}
        </time>
        {!inbound && <span> · {m.status}</span>}
        {inbound && <span> · {m.read_at ? "read" : "unread"}</span>}
        {m.mode === "test" && <span> · test</span>}
        {m.error && <span className="error-text"> · {m.error}</span>}
      </span>
    </li>
  );
}
