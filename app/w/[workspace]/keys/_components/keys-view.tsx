"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/_components/trpc.ts";
import { CreateKeyDialog, type CreatedKey } from "./create-key-dialog.tsx";
import { KeysTable, type ApiKeyRow } from "./keys-table.tsx";
import { NewKeyDialog } from "./new-key-dialog.tsx";
import { RevokeKeyDialog } from "./revoke-key-dialog.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

/** The API keys page. Support staff (`canManage` false) get the list without controls. */
export function KeysView({ canManage }: { canManage: boolean }) {
  const trpc = useTRPC();
  const keys = useQuery(trpc.keys.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRow | null>(null);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>API keys</h1>
          <p className="muted">
            Your backend authenticates its API calls with these keys. Test keys simulate sending; live keys really send and are refused from
            browsers.
          </p>
        </div>
        {canManage && (
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            Create API key
          </button>
        )}
      </div>
      {!canManage && (
        <p className="note">You have read-only access to this workspace&apos;s keys. Ask an admin to create or revoke keys.</p>
      )}
      <QueryState query={keys} what="the keys" />
      {keys.data && <KeysTable keys={keys.data} onRevoke={canManage ? setRevoking : undefined} />}
      {creating && (
        <CreateKeyDialog
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
          }}
        />
      )}
      {created && <NewKeyDialog created={created} onClose={() => setCreated(null)} />}
      {revoking && <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />}
    </>
  );
}
