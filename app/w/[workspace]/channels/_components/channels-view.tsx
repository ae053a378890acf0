"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { Channel } from "@/server/channels/channel-schemas.ts";
import { ChannelCard } from "./channel-card.tsx";
import { CHANNEL_FORMS } from "./channel-forms.tsx";
import { TYPE_LABEL, type ChannelType } from "./channel-labels.ts";
import { ConnectChannelDialog, type Connected } from "./connect-channel-dialog.tsx";
import { DisconnectChannelDialog } from "./disconnect-channel-dialog.tsx";
import { EventsTokenDialog } from "./events-token-dialog.tsx";
import { SendTestDialog } from "./send-test-dialog.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

const CONNECTABLE = Object.keys(CHANNEL_FORMS) as ChannelType[];

/** The channels page. Support staff (`canManage` false) get the list without controls. */
export function ChannelsView({ canManage }: { canManage: boolean }) {
  const trpc = useTRPC();
  const [showDisconnected, setShowDisconnected] = useState(false);
  const channels = useQuery(trpc.channels.list.queryOptions({ include_disconnected: showDisconnected }));
  const [connecting, setConnecting] = useState<ChannelType | null>(null);
  const [withToken, setWithToken] = useState<Connected | null>(null);
  const [testing, setTesting] = useState<Channel | null>(null);
  const [disconnecting, setDisconnecting] = useState<Channel | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function onConnected(connected: Connected) {
    setConnecting(null);
    setDone(`${TYPE_LABEL[connected.channel.type]} channel “${connected.channel.name}” connected.`);
    // The e-mail events token exists only in this answer: show it now, once.
    if (connected.eventsToken) setWithToken(connected);
  }

  const list = channels.data?.filter((c) => showDisconnected || !c.disconnected_at);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Channels</h1>
          <p className="muted">
            The WhatsApp Cloud API numbers, SMTP relays and Twilio accounts this workspace sends through with live keys. Test keys need no
            channel.
          </p>
        </div>
        {canManage && (
          <div className="header-actions">
            {CONNECTABLE.map((type) => (
              <button key={type} type="button" className="button primary" onClick={() => setConnecting(type)}>
                {CHANNEL_FORMS[type].connect}
              </button>
            ))}
          </div>
        )}
      </div>
      {!canManage && (
        <p className="note">You have read-only access to this workspace&apos;s channels. Ask an admin to connect or disconnect one.</p>
      )}
      <p role="status" className="ok">
        {done ?? ""}
      </p>

      <div className="list-options">
        <label className="choice">
          <input type="checkbox" checked={showDisconnected} onChange={(event) => setShowDisconnected(event.target.checked)} />
          Show disconnected channels
        </label>
      </div>
      <QueryState query={channels} what="the channels" />
      {list &&
        (list.length === 0 ? (
          <p className="empty">
            No channels connected yet.
            {canManage ? " Connect a WhatsApp number, an SMTP relay or a Twilio account to send live messages." : ""}
          </p>
        ) : (
          <ul className="channel-list" aria-label="Channels">
            {list.map((channel) => (
              <li key={channel.id}>
                <ChannelCard
                  channel={channel}
                  canManage={canManage}
                  onSendTest={canManage ? () => setTesting(channel) : undefined}
                  onDisconnect={canManage ? () => setDisconnecting(channel) : undefined}
                />
              </li>
            ))}
          </ul>
        ))}

      {connecting && <ConnectChannelDialog type={connecting} onClose={() => setConnecting(null)} onConnected={onConnected} />}
      {withToken && <EventsTokenDialog connected={withToken} onClose={() => setWithToken(null)} />}
      {testing && <SendTestDialog channel={testing} onClose={() => setTesting(null)} />}
      {disconnecting && (
        <DisconnectChannelDialog
          channel={disconnecting}
          onClose={() => setDisconnecting(null)}
          onDisconnected={() => {
            setDone(`${TYPE_LABEL[disconnecting.type]} channel “${disconnecting.name}” disconnected.`);
            setDisconnecting(null);
          }}
        />
      )}
    </>
  );
}
