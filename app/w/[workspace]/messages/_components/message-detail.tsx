"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { Link } from "@/app/_components/link.tsx";
import { CopyButton } from "@/app/_components/copy-button.tsx";
import { errorMessage, useTRPC } from "@/app/_components/trpc.ts";
import { Modal } from "@/app/_components/modal.tsx";
import { When } from "@/app/_components/when.tsx";
import type { AppRouter } from "@/server/api/root.ts";
import { MessageContent } from "./message-content.tsx";
import { FINAL_STATUSES, ModeBadge, StatusBadge } from "./message-labels.tsx";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";
import { MessageDeliveries } from "./message-deliveries.tsx";
import { MessageSourceLink } from "./message-source.tsx";
import { MessageTimeline } from "./message-timeline.tsx";
import { retryReason } from "./message-sentences.ts";
import { QueryState } from "@/app/_components/query-state.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

export type MessageDetails = inferRouterOutputs<AppRouter>["messages"]["detail"];

/** While a message can still move, its page follows it: closely at first, then calmly (an e-mail may stay `sent` for good, D39). */
const REFRESH_MS = 2_000;
const CALM_REFRESH_MS = 30_000;
const CLOSE_WATCH_MS = 5 * 60_000;

function refreshInterval(message: MessageDetails | undefined): number | false {
  if (!message) return REFRESH_MS;
  if (FINAL_STATUSES.has(message.status)) return false;
  return Date.now() - Date.parse(message.created_at) < CLOSE_WATCH_MS ? REFRESH_MS : CALM_REFRESH_MS;
}

/** A queued message's failed attempts: why the last one failed, in words and as the provider said, and when the next is due. */
function RetryLine({ retry, channel }: { retry: NonNullable<MessageDetails["retry"]>; channel: MessageDetails["channel"] }) {
  const attempts = retry.failed_attempts === 1 ? "1 attempt" : `${retry.failed_attempts} attempts`;
  return (
    <>
      <span className="cell-line">
        {retryReason(retry.error, channel)} ({attempts} failed so far). Next attempt:{" "}
        {retry.next_attempt_at ? <When value={retry.next_attempt_at} /> : "under way"}.
      </span>
      <span className="cell-line error-text">{retry.error}</span>
    </>
  );
}

/**
 * One message: its fields (its contact, source and run linked, ids to copy), its rendered
 * content, its timeline and its events' webhook deliveries. Admins may cancel a message still
 * queued (D76); the service refuses once it is with the provider.
 */
export function MessageDetail({ workspace, id, canCancel = false }: { workspace: string; id: string; canCancel?: boolean }) {
  const trpc = useTRPC();
  const message = useQuery({
    ...trpc.messages.detail.queryOptions({ id }),
    refetchInterval: (query) => refreshInterval(query.state.data),
  });
  const base = `/w/${encodeURIComponent(workspace)}`;
  const back = (
    <Link href={`${base}/messages`} className="back-link">
      ← All messages
    </Link>
  );
  if (message.isPending || message.isError) {
    return (
      <>
        {back}
        <QueryState query={message} what="the message" />
      </>
    );
  }

  const m = message.data;
  const following = !FINAL_STATUSES.has(m.status);
  return (
    <>
      {back}
      <div className="page-header">
        <div>
          <h1>
            {CHANNEL_LABEL[m.channel]} message to {m.to ?? "an unknown address"}
          </h1>
          <p className="muted id-line">
            <code>{m.id}</code> <CopyButton value={m.id} label="Copy the message ID" />
          </p>
        </div>
        <p className="status-line">
          <StatusBadge status={m.status} /> <ModeBadge mode={m.mode} />
        </p>
        {canCancel && m.status === "queued" && m.direction === "outbound" && <CancelMessageButton id={m.id} />}
      </div>
      {following && (
        <p className="muted refresh-note">This page follows the message: it refreshes by itself until the message is read or failed.</p>
      )}

      <section className="panel" aria-label="Message details">
        <dl className="details">
          <dt>Status</dt>
          <dd>
            <StatusBadge status={m.status} />
          </dd>
          <dt>Mode</dt>
          <dd>
            <ModeBadge mode={m.mode} />
          </dd>
          <dt>Channel</dt>
          <dd>
            <ChannelName type={m.channel} channelId={m.channel_id} mode={m.mode} />
          </dd>
          <dt>To</dt>
          <dd>{m.to ?? <span className="muted">None</span>}</dd>
          <dt>Contact</dt>
          <dd>
            <span className="id-line">
              <Link href={`${base}/contacts/${encodeURIComponent(m.contact.id)}`}>
                {m.contact.name ?? m.contact.phone ?? m.contact.email ?? m.contact.id}
              </Link>
              <code>{m.contact.id}</code>
              <CopyButton value={m.contact.id} label="Copy the contact ID" />
            </span>
          </dd>
          <dt>Provider message ID</dt>
          <dd>
            {m.provider_message_id ? (
              <span className="id-line">
                <code>{m.provider_message_id}</code>
                <CopyButton value={m.provider_message_id} label="Copy the provider message ID" />
              </span>
            ) : (
              <span className="muted">
                {m.mode === "test" ? "None (test messages reach no provider)" : following ? "None yet" : "None"}
              </span>
            )}
          </dd>
          <dt>Error</dt>
          <dd>
            {m.retry && !m.error ? (
              <RetryLine retry={m.retry} channel={m.channel} />
            ) : m.error || m.error_code ? (
              <>
                {m.error_reason && <span className="cell-line">{m.error_reason}</span>}
                {m.error && <span className="cell-line error-text">{m.error}</span>}
                {m.error_code && (
                  <span className="cell-line muted">
                    Code <code>{m.error_code}</code>
                  </span>
                )}
              </>
            ) : (
              <span className="muted">None</span>
            )}
          </dd>
          <dt>Sent by</dt>
          <dd>
            <MessageSourceLink workspace={workspace} source={m.source} />
            {m.source.kind === "flow" && m.source.run_id && (
              <span className="id-line">
                Run{" "}
                {m.source.flow_id ? (
                  <Link href={`${base}/flows/${encodeURIComponent(m.source.flow_id)}?run=${encodeURIComponent(m.source.run_id)}`}>
                    <code>{m.source.run_id}</code>
                  </Link>
                ) : (
                  <code>{m.source.run_id}</code>
                )}
                <CopyButton value={m.source.run_id} label="Copy the run ID" />
              </span>
            )}
          </dd>
          <dt>Created</dt>
          <dd>
            <When value={m.created_at} />
          </dd>
          {m.scheduled_at && (
            <>
              <dt>Scheduled for</dt>
              <dd>
                <When value={m.scheduled_at} />
              </dd>
            </>
          )}
          {m.canceled_at && (
            <>
              <dt>Canceled</dt>
              <dd>
                <When value={m.canceled_at} />
              </dd>
            </>
          )}
          <dt>Sent</dt>
          <dd>
            <When value={m.sent_at} empty="Not yet" />
          </dd>
          <dt>Delivered</dt>
          <dd>
            <When value={m.delivered_at} empty="Not yet" />
          </dd>
          <dt>Read</dt>
          <dd>
            <When value={m.read_at} empty="Not yet" />
          </dd>
          {m.failed_at && (
            <>
              <dt>Failed</dt>
              <dd>
                <When value={m.failed_at} />
              </dd>
            </>
          )}
        </dl>
      </section>

      <section className="section" aria-labelledby="content-heading">
        <h2 id="content-heading">Content</h2>
        <MessageContent message={m} content={m.content} />
      </section>

      <section className="section" aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline</h2>
        <MessageTimeline entries={m.history} channel={m.channel} />
      </section>

      <section className="section" aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Webhook deliveries</h2>
        <MessageDeliveries workspace={workspace} deliveries={m.deliveries} />
      </section>
    </>
  );
}

/** The channel's type and, for live messages, the connection it went through (by name when known). */
function ChannelName({ type, channelId, mode }: { type: keyof typeof CHANNEL_LABEL; channelId: string | null; mode: string }) {
  const trpc = useTRPC();
  const channels = useQuery({ ...trpc.channels.list.queryOptions({ include_disconnected: true }), enabled: Boolean(channelId) });
  const channel = channels.data?.find((c) => c.id === channelId);
  return (
    <>
      {CHANNEL_LABEL[type]}
      {channelId ? (
        <>
          {" · "}
          {channel ? `${channel.name} ` : ""}
          <code>{channelId}</code>
          {channel?.disconnected_at && <span className="muted"> (disconnected)</span>}
        </>
      ) : (
        <span className="muted">{mode === "test" ? " · simulated (test mode sends through no channel)" : ""}</span>
      )}
    </>
  );
}

/** Cancels a queued message after a confirmation: it will not be sent, and a live one no longer counts against the limits. */
function CancelMessageButton({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const cancel = useMutation(
    trpc.messages.cancel.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.messages.detail.queryFilter({ id }));
        setOpen(false);
      },
    }),
  );
  return (
    <>
      <button type="button" className="button danger" onClick={() => setOpen(true)}>
        Cancel message
      </button>
      {open && (
        <Modal title="Cancel this message?" role="alertdialog" onClose={() => setOpen(false)}>
          <div className="stack">
            <p>
              It will not be sent, the event <code>mensagem.cancelada</code> goes to your webhooks, and a live message no longer counts
              against the daily and monthly limits. A message already handed to the provider cannot be canceled.
            </p>
            {cancel.isError && (
              <p role="alert" className="error">
                {errorMessage(cancel.error)}
              </p>
            )}
            <DialogFooter>
              <button type="button" className="button" onClick={() => setOpen(false)} autoFocus>
                Keep it
              </button>
              <button type="button" className="button danger" disabled={cancel.isPending} onClick={() => cancel.mutate({ id })}>
                {cancel.isPending ? "Canceling…" : "Cancel message"}
              </button>
            </DialogFooter>
          </div>
        </Modal>
      )}
    </>
  );
}
