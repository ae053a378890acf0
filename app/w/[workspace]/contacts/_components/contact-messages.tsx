"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "@/app/_components/link.tsx";
import { useCursorPages } from "@/app/_components/cursor-pages.ts";
import { Pager } from "@/app/_components/pager.tsx";
import { RelativeTime } from "@/app/_components/relative-time.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { ModeBadge, StatusBadge } from "../../messages/_components/message-labels.tsx";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";
import { MessageSummary } from "../../messages/_components/message-source.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

const PAGE_SIZE = 10;

/** A contact's messages, newest first, ten at a time, each opening the message's page. */
export function ContactMessages({ workspace, contactId }: { workspace: string; contactId: string }) {
  const trpc = useTRPC();
  const pages = useCursorPages();
  const after = pages.after;
  const page = useQuery({
    ...trpc.messages.search.queryOptions({ contact_id: contactId, limit: PAGE_SIZE, ...(after ? { after } : {}) }),
    placeholderData: keepPreviousData,
  });
  const next = page.isPlaceholderData ? null : (page.data?.next ?? null);
  const base = `/w/${encodeURIComponent(workspace)}/messages`;
  return (
    <section className="section" aria-labelledby="contact-messages">
      <h2 id="contact-messages">Messages</h2>
      <QueryState query={page} what="the messages" />
      {page.data &&
        (page.data.items.length === 0 && pages.page === 1 ? (
          <p className="empty">No messages to or from this contact yet.</p>
        ) : (
          <div className="table-wrap" aria-busy={page.isPlaceholderData}>
            <table>
              <caption className="visually-hidden">Messages of this contact, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Message</th>
                  <th scope="col">Content</th>
                  <th scope="col">Status</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {page.data.items.map((m) => (
                  <tr key={m.id}>
                    <th scope="row">
                      <Link href={`${base}/${encodeURIComponent(m.id)}`}>
                        <code>{m.id}</code>
                      </Link>
                    </th>
                    <td className="message-summary">
                      <MessageSummary summary={m.summary} />
                    </td>
                    <td>
                      <span className="cell-stack">
                        <StatusBadge status={m.status} />
                        {m.status === "failed" && <span className="cell-line error-text">{m.error_reason ?? m.error}</span>}
                      </span>
                    </td>
                    <td>
                      <span className="cell-stack">
                        {CHANNEL_LABEL[m.channel]} <ModeBadge mode={m.mode} />
                      </span>
                    </td>
                    <td>
                      <RelativeTime value={m.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      {page.data && (pages.page > 1 || next) && (
        <Pager
          label="Pages of this contact's messages"
          page={pages.page}
          hasNext={Boolean(next)}
          onPrevious={pages.previous}
          onNext={() => pages.next(next)}
        />
      )}
    </section>
  );
}
