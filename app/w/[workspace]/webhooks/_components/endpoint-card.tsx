"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/app/_components/link.tsx";
import { useId, useState } from "react";
import { errorMessage, useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import { DeleteEndpointDialog } from "./delete-endpoint-dialog.tsx";
import { DisableEndpointDialog } from "./disable-endpoint-dialog.tsx";
import { EndpointFormDialog } from "./endpoint-form-dialog.tsx";
import { RotateSecretDialog, type Rotated } from "./rotate-secret-dialog.tsx";
import { SecretDialog } from "./secret-dialog.tsx";
import { SendTestEventDialog } from "./send-test-event-dialog.tsx";
import { endpointPath, EventList, type Endpoint } from "./webhook-labels.tsx";

type Props = {
  endpoint: Endpoint;
  workspace: string;
  /** Admins: the endpoint's actions. Support staff see it without any. */
  canManage: boolean;
  /** On the list page: a link to the endpoint's delivery log. */
  linkToLog?: boolean;
  /** What an action did, for the page's status line. */
  onDone: (message: string) => void;
  /** After a deletion, e.g. to leave the endpoint's own page. */
  onDeleted?: () => void;
};

type Dialog = "test" | "edit" | "rotate" | "disable" | "delete" | null;

/** One endpoint: where it sends, which events, whether it is enabled, its last day of deliveries and its valid secrets. */
export function EndpointCard({ endpoint, workspace, canManage, linkToLog = false, onDone, onDeleted }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [rotated, setRotated] = useState<Rotated | null>(null);
  const enable = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.webhooks.list.queryFilter());
        onDone(`Endpoint ${endpoint.url} enabled.`);
      },
    }),
  );
  const e = endpoint;
  const counts = e.last_24h;
  return (
    <article className={e.enabled ? "panel endpoint" : "panel endpoint disabled"} aria-labelledby={headingId}>
      <div className="channel-head">
        <h2 id={headingId} className="endpoint-url">
          {e.url}
        </h2>
        {e.enabled ? <span className="badge active">Enabled</span> : <span className="badge revoked">Disabled</span>}
        <div className="channel-actions">
          {linkToLog && (
            <Link href={endpointPath(workspace, e.id)} className="button small" aria-label={`Delivery log of ${e.url}`}>
              Delivery log
            </Link>
          )}
          {canManage && (
            <>
              {e.enabled && (
                <button type="button" className="button small" aria-label={`Send test event to ${e.url}`} onClick={() => setDialog("test")}>
                  Send test event…
                </button>
              )}
              <button type="button" className="button small" aria-label={`Edit ${e.url}`} onClick={() => setDialog("edit")}>
                Edit…
              </button>
              <button type="button" className="button small" aria-label={`Rotate secret of ${e.url}`} onClick={() => setDialog("rotate")}>
                Rotate secret…
              </button>
              {e.enabled ? (
                <button type="button" className="button small" aria-label={`Disable ${e.url}`} onClick={() => setDialog("disable")}>
                  Disable…
                </button>
              ) : (
                <button
                  type="button"
                  className="button small"
                  aria-label={`Enable ${e.url}`}
                  disabled={enable.isPending}
                  onClick={() => enable.mutate({ endpoint_id: e.id, enabled: true })}
                >
                  {enable.isPending ? "Enabling…" : "Enable"}
                </button>
              )}
              <button type="button" className="button danger small" aria-label={`Delete ${e.url}`} onClick={() => setDialog("delete")}>
                Delete…
              </button>
            </>
          )}
        </div>
      </div>
      {enable.isError && (
        <p role="alert" className="error">
          Could not enable the endpoint: {errorMessage(enable.error)}
        </p>
      )}
      <EndpointState endpoint={e} />
      <dl className="details">
        <dt>Endpoint ID</dt>
        <dd>
          <code>{e.id}</code>
        </dd>
        <dt>Description</dt>
        <dd>{e.description ?? <span className="muted">None</span>}</dd>
        <dt>Events</dt>
        <dd>
          <EventList events={e.events} label={`Events of ${e.url}`} />
        </dd>
        <dt>Last 24 hours</dt>
        <dd aria-label={`Deliveries of the last 24 hours to ${e.url}`}>
          <span className="delivery-counts">
            <span>{counts.succeeded} succeeded</span>
            <span className={counts.failed ? "error-text" : undefined}>{counts.failed} failed</span>
            <span>{counts.pending} pending</span>
          </span>
        </dd>
        <dt>Signing secrets</dt>
        <dd>
          <ul className="secret-list" aria-label={`Signing secrets of ${e.url}`}>
            {e.secrets.map((s) => (
              <li key={s.created_at}>
                {s.expires_at ? "Previous" : "Current"}: created <When value={s.created_at} />
                {s.expires_at ? (
                  <>
                    , valid until <When value={s.expires_at} />
                  </>
                ) : (
                  ", no expiry"
                )}
              </li>
            ))}
          </ul>
        </dd>
        <dt>Added</dt>
        <dd>
          <When value={e.created_at} />
        </dd>
      </dl>

      {dialog === "test" && (
        <SendTestEventDialog
          endpoint={e}
          onClose={() => setDialog(null)}
          onSent={(sent) => {
            setDialog(null);
            onDone(`Test event ${sent.event} queued for ${e.url}: event ${sent.eventId}, delivery ${sent.deliveryId}.`);
          }}
        />
      )}
      {dialog === "edit" && (
        <EndpointFormDialog
          endpoint={e}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            onDone("Endpoint saved.");
          }}
        />
      )}
      {dialog === "rotate" && (
        <RotateSecretDialog
          endpoint={e}
          onClose={() => setDialog(null)}
          onRotated={(r) => {
            setDialog(null);
            setRotated(r);
          }}
        />
      )}
      {rotated && (
        <SecretDialog
          title="Signing secret rotated"
          url={rotated.url}
          secret={rotated.secret}
          previousExpiresAt={rotated.previousExpiresAt}
          onClose={() => setRotated(null)}
        />
      )}
      {dialog === "disable" && (
        <DisableEndpointDialog
          endpoint={e}
          onClose={() => setDialog(null)}
          onDisabled={() => {
            setDialog(null);
            onDone(`Endpoint ${e.url} disabled.`);
          }}
        />
      )}
      {dialog === "delete" && (
        <DeleteEndpointDialog
          endpoint={e}
          onClose={() => setDialog(null)}
          onDeleted={() => {
            setDialog(null);
            onDone(`Endpoint ${e.url} deleted.`);
            onDeleted?.();
          }}
        />
      )}
    </article>
  );
}

/** Why an endpoint is disabled, or that its deliveries are failing (D33: 5 days of failures disable it). */
function EndpointState({ endpoint: e }: { endpoint: Endpoint }) {
  if (!e.enabled && e.disabled_reason === "failing") {
    return (
      <p className="warning endpoint-state" role="note">
        <strong>Disabled by the service</strong> on <When value={e.disabled_at} />: its deliveries had failed for 5 days in a row (since{" "}
        <When value={e.failing_since} />
        ). No events are sent to it. Fix the receiver, then enable the endpoint again and replay the failed deliveries.
      </p>
    );
  }
  if (!e.enabled) {
    return (
      <p className="note endpoint-state">
        Disabled by an admin on <When value={e.disabled_at} />. No events are sent to it until it is enabled again.
      </p>
    );
  }
  if (e.failing_since) {
    return (
      <p className="warning endpoint-state">
        Deliveries have been failing since <When value={e.failing_since} />. If they keep failing for 5 days in a row, the service disables
        the endpoint.
      </p>
    );
  }
  return null;
}
