"use client";

import { SecretRevealDialog } from "@/app/_components/secret-reveal-dialog.tsx";
import type { Connected } from "./connect-channel-dialog.tsx";

/** An e-mail channel's events token, shown this once: the service keeps it sealed and never shows it again. */
export function EventsTokenDialog({ connected, onClose }: { connected: Connected; onClose: () => void }) {
  return (
    <SecretRevealDialog
      title="E-mail channel connected"
      intro={
        <p>
          <strong>{connected.channel.name}</strong> is connected. Your relay (or a small forwarder of its webhooks) reports deliveries and
          bounces to <code>{connected.channel.callback_url}</code> with this token:
        </p>
      }
      ifLost="To get a new one, connect the channel again."
      label="Events token"
      copyWhat="the events token"
      value={connected.eventsToken ?? ""}
      hint={
        <>
          Send it as <code>Authorization: Bearer &lt;token&gt;</code>.
        </>
      }
      onClose={onClose}
    />
  );
}
