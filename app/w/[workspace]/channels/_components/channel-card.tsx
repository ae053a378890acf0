"use client";

import { useId } from "react";
import { CopyButton } from "@/app/_components/copy-button.tsx";
import { When } from "@/app/_components/when.tsx";
import { CHANNEL_COLOR } from "@/app/_components/channel-names.ts";
import { SECRET_NAMES, type Channel } from "@/server/channels/channel-schemas.ts";
import { CHANNEL_FORMS } from "./channel-forms.tsx";
import { ChannelPaused } from "./channel-paused.tsx";
import { EXTERNAL_ID_LABEL, SECRET_LABEL, TYPE_LABEL } from "./channel-labels.ts";

type Props = {
  channel: Channel;
  /** Admins: the template sync button. */
  canManage?: boolean;
  /** Admins only: the channel's actions. */
  onSendTest?: () => void;
  onDisconnect?: () => void;
};

/** One channel: what is stored in clear, which secrets are set (never their values), and where the provider reports. */
export function ChannelCard({ channel, canManage = false, onSendTest, onDisconnect }: Props) {
  const headingId = useId();
  const disconnected = Boolean(channel.disconnected_at);
  const settings = channel.settings;
  const form = CHANNEL_FORMS[channel.type];
  return (
    <article className={disconnected ? "panel channel disconnected" : "panel channel"} aria-labelledby={headingId}>
      <div className="channel-head">
        <h2 id={headingId}>{channel.name}</h2>
        <span className="badge" style={{ borderColor: CHANNEL_COLOR[channel.type] }}>
          {TYPE_LABEL[channel.type]}
        </span>
        {disconnected ? (
          <span className="badge revoked">Disconnected</span>
        ) : channel.status === "paused" ? (
          <span className="badge paused">Paused</span>
        ) : (
          <span className="badge active">Connected</span>
        )}
        {(onSendTest || onDisconnect) && !disconnected && (
          <div className="channel-actions">
            {onSendTest && (
              <button type="button" className="button small" aria-label={`Send a test message with ${channel.name}`} onClick={onSendTest}>
                Send a test message…
              </button>
            )}
            {onDisconnect && (
              <button type="button" className="button danger small" aria-label={`Disconnect ${channel.name}`} onClick={onDisconnect}>
                Disconnect
              </button>
            )}
          </div>
        )}
      </div>
      {!disconnected && <ChannelPaused channel={channel} canManage={canManage} />}
      <dl className="details">
        <dt>Channel ID</dt>
        <dd>
          <code>{channel.id}</code>
        </dd>
        <dt>{EXTERNAL_ID_LABEL[channel.type]}</dt>
        <dd>
          <code>{channel.external_id}</code>
        </dd>
        {form.details(settings)}
        {channel.reputation && (
          <>
            <dt>Reputation (7 days)</dt>
            <dd>
              <Reputation reputation={channel.reputation} />
            </dd>
          </>
        )}
        <dt>Rate</dt>
        <dd>{channel.rate_per_second} per second at most</dd>
        <dt>Secrets</dt>
        <dd>
          <Secrets channel={channel} />
        </dd>
        <dt>Callback URL</dt>
        <dd>
          <div className="copy-inline">
            <code>{channel.callback_url}</code>
            <CopyButton value={channel.callback_url} label={`Copy the callback URL of ${channel.name}`} />
          </div>
          <span className="muted">{form.callbackHint}</span>
        </dd>
        <dt>Connected</dt>
        <dd>
          <When value={channel.created_at} />
        </dd>
        {disconnected && (
          <>
            <dt>Disconnected</dt>
            <dd>
              <When value={channel.disconnected_at} />
            </dd>
          </>
        )}
      </dl>
      {form.panel && !disconnected && <form.panel channel={channel} canManage={canManage} />}
    </article>
  );
}

function Secrets({ channel }: { channel: Channel }) {
  if (!channel.secrets_readable) {
    return (
      <p className="warning">
        The stored secrets cannot be decrypted (the server&apos;s AUTH_SECRET changed): this channel cannot send. Connect it again.
      </p>
    );
  }
  return (
    <ul className="chips" aria-label={`Secrets of ${channel.name}`}>
      {SECRET_NAMES[channel.type].map((name) => {
        const set = channel.secrets_set.includes(name);
        return (
          <li key={name} className={set ? "secret set" : "secret"}>
            {SECRET_LABEL[name] ?? name}: {set ? "set" : "not set"}
          </li>
        );
      })}
    </ul>
  );
}

const percent = (rate: number) => `${(rate * 100).toFixed(2)} %`;

/** D93: an e-mail channel's rolling rates, which pause its journey e-mails past the workspace's thresholds. */
function Reputation({ reputation }: { reputation: NonNullable<Channel["reputation"]> }) {
  return (
    <span>
      Complaints {percent(reputation.complaint_rate)} · hard bounces {percent(reputation.bounce_rate)} ·{" "}
      {reputation.window_sent.toLocaleString("en-US")} e-mails sent
      {reputation.window_sent < 1000 && <span className="muted"> (journeys are paused on these rates only from 1,000)</span>}
    </span>
  );
}
