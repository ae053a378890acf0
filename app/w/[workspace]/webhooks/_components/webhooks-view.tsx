"use client";

import { useQuery } from "@tanstack/react-query";
import { Link } from "@/app/_components/link.tsx";
import { useState } from "react";
import { useTRPC } from "@/app/_components/trpc.ts";
import { EndpointCard } from "./endpoint-card.tsx";
import { EndpointFormDialog, type Added } from "./endpoint-form-dialog.tsx";
import { SecretDialog } from "./secret-dialog.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

/** The webhooks page: the workspace's endpoints. Support staff (`canManage` false) get the list without controls. */
export function WebhooksView({ workspace, canManage }: { workspace: string; canManage: boolean }) {
  const trpc = useTRPC();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<Added | null>(null);
  const [done, setDone] = useState<string | null>(null);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Webhooks</h1>
          <p className="muted">
            Endpoints of your systems that receive this workspace&apos;s events (messages, flows, contacts) as signed HTTP POSTs. See{" "}
            <Link href="/docs/webhooks">Verify webhook signatures</Link>.
          </p>
        </div>
        {canManage && (
          <button type="button" className="button primary" onClick={() => setAdding(true)}>
            Add endpoint
          </button>
        )}
      </div>
      {!canManage && (
        <p className="note">
          You have read-only access to this workspace&apos;s webhooks. Ask an admin to add, change, test or replay an endpoint.
        </p>
      )}
      <p role="status" className="ok">
        {done ?? ""}
      </p>

      <QueryState query={endpoints} what="the endpoints" />
      {endpoints.data &&
        (endpoints.data.length === 0 ? (
          <p className="empty">No webhook endpoints yet.{canManage ? " Add one to receive this workspace's events." : ""}</p>
        ) : (
          <ul className="channel-list" aria-label="Endpoints">
            {endpoints.data.map((endpoint) => (
              <li key={endpoint.id}>
                <EndpointCard endpoint={endpoint} workspace={workspace} canManage={canManage} linkToLog onDone={setDone} />
              </li>
            ))}
          </ul>
        ))}

      {adding && (
        <EndpointFormDialog
          endpoint={null}
          onClose={() => setAdding(false)}
          onAdded={(a) => {
            setAdding(false);
            setDone(`Endpoint ${a.url} added.`);
            // The secret exists only in this answer: show it now, once.
            setAdded(a);
          }}
        />
      )}
      {added && <SecretDialog title="Endpoint added" url={added.url} secret={added.secret} onClose={() => setAdded(null)} />}
    </>
  );
}
