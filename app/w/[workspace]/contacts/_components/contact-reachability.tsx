"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { QueryState } from "@/app/_components/query-state.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import type { Reachability } from "@/server/messaging/reachability.ts";
import { DASHBOARD_CHANNELS } from "@/app/_channels/channels.ts";
import type { ChannelType as Channel } from "@/app/_channels/dashboard-channel.ts";
import { CHANNEL_WORDS_OF } from "@/app/_channels/channel-words.ts";
import { CHANNEL_LABEL, CHANNEL_WORDS } from "@/app/_components/channel-names.ts";

type Reason = Reachability[Channel]["reasons"][number];

/** What each channel sends to. */
const ADDRESS = (channel: Channel) => CHANNEL_WORDS_OF[channel].address;

/** Each reason a message would not go out, in words; the address is the channel's own. */
function reasonText(reason: Reason, channel: Channel): string {
  switch (reason) {
    case "no_address":
      return `The contact has no ${ADDRESS(channel)}.`;
    case "opted_out":
      return `The contact opted out of ${CHANNEL_WORDS[channel]}.`;
    case "recipient_suppressed":
      return "The address is on the suppression list (a hard bounce, a spam complaint, or added by hand).";
    case "whatsapp_window_closed":
      return "The 24-hour window is closed: only a template message would go.";
    case "no_channel":
      return `No ${CHANNEL_WORDS[channel]} channel is connected, or it is paused.`;
    case "quota_reached":
      return "The workspace's daily or monthly message limit is reached.";
    case "frequency_capped":
      return "Journey messages only: the frequency cap is reached for now.";
    case "channel_paused":
      return "Journey messages only: the channel's journey sends are paused because of its complaint or bounce rate.";
  }
}

const CHANNEL_TYPES = Object.keys(DASHBOARD_CHANNELS) as Channel[];

/** What a channel's part of the dashboard shows of the contact's reachability beyond the verdict (WhatsApp's window). */
function ReachDetails<T extends Channel>({ channel, reach }: { channel: T; reach: Reachability }) {
  const Details = DASHBOARD_CHANNELS[channel].ReachDetails;
  return Details ? <Details reach={reach[channel]} /> : null;
}

function Verdict({ reachable }: { reachable: boolean }) {
  return <span className={`badge ${reachable ? "active" : "opted-out"}`}>{reachable ? "Reachable" : "Not reachable"}</span>;
}

function Reasons({ reasons, channel, heldUntil }: { reasons: Reason[]; channel: Channel; heldUntil: string | null }) {
  if (reasons.length === 0 && heldUntil) {
    return (
      <p className="muted small">
        The journey&apos;s message would wait for its quiet hours to end, at <When value={heldUntil} />.
      </p>
    );
  }
  if (reasons.length === 0) return <p className="muted small">A message would go out now.</p>;
  return (
    <ul className="reach-reasons">
      {reasons.map((r) => (
        <li key={r}>{reasonText(r, channel)}</li>
      ))}
    </ul>
  );
}

/** "Reachable now?": per channel, whether a message would go out now and why not, the window and quiet hours. */
export function ContactReachability({ contactId }: { contactId: string }) {
  const trpc = useTRPC();
  const id = useId();
  // D71: with a journey chosen, its quiet hours and its own caps are checked too.
  const [flowId, setFlowId] = useState("");
  const reach = useQuery(trpc.contacts.reachability.queryOptions({ id: contactId, ...(flowId ? { flow_id: flowId } : {}) }));
  const flows = useQuery(trpc.flows.all.queryOptions());
  const runs = useQuery(trpc.flows.contactRuns.queryOptions({ contact_id: contactId }));
  const inIds = new Set((runs.data ?? []).filter((run) => run.status === "active").map((run) => run.flow_id));
  const usable = (flows.data ?? []).filter((f) => f.status !== "archived" || inIds.has(f.id));
  const theirs = usable.filter((f) => inIds.has(f.id));
  const others = usable.filter((f) => !inIds.has(f.id));
  const r = reach.data;
  const held = r?.quiet_hours.active ? r.quiet_hours.until : null;
  return (
    <section className="section" aria-labelledby="reachability">
      <h2 id="reachability">Reachable now?</h2>
      <div className="field reach-flow">
        <label htmlFor={`${id}-flow`}>For a journey</label>
        <select id={`${id}-flow`} value={flowId} onChange={(e) => setFlowId(e.target.value)}>
          <option value="">Any message (no journey)</option>
          {theirs.length > 0 && (
            <optgroup label="Journeys this contact is in">
              {theirs.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </optgroup>
          )}
          {others.length > 0 && (
            <optgroup label="Other journeys">
              {others.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </optgroup>
          )}
        </select>
        <span className="muted hint">A journey adds its quiet hours and its own frequency caps to the checks.</span>
      </div>
      <QueryState query={reach} what="the reachability" lines={2} />
      {r && (
        <div className="reach-grid">
          {CHANNEL_TYPES.map((channel) => (
            <section key={channel} className="panel" aria-labelledby={`reach-${channel}`}>
              <h3 id={`reach-${channel}`}>
                {CHANNEL_LABEL[channel]} <Verdict reachable={r[channel].reachable} />
              </h3>
              <Reasons reasons={r[channel].reasons} channel={channel} heldUntil={held} />
              <ReachDetails channel={channel} reach={r} />
            </section>
          ))}
          <section className="panel" aria-labelledby="reach-time">
            <h3 id="reach-time">Local time</h3>
            <dl className="details">
              <dt>Time zone</dt>
              <dd>{r.time_zone}</dd>
              <dt>Quiet hours</dt>
              <dd>
                {r.quiet_hours.active && r.quiet_hours.until ? (
                  <>
                    Active until <When value={r.quiet_hours.until} />
                  </>
                ) : flowId ? (
                  "Not active now for this journey."
                ) : (
                  "Not checked: choose a journey above, quiet hours are a journey's setting."
                )}
              </dd>
            </dl>
          </section>
        </div>
      )}
    </section>
  );
}
