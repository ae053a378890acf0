"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Modal } from "@/app/_components/modal.tsx";
import { errorMessage, useTRPC } from "@/app/_components/trpc.ts";
import type { Endpoint } from "./webhook-labels.tsx";

type Props = { endpoint: Endpoint; onClose: () => void; onDisabled: () => void };

/** Confirms disabling an endpoint: deliveries stop at once; enabling it again is one click. */
export function DisableEndpointDialog({ endpoint, onClose, onDisabled }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const disable = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          queryClient.invalidateQueries(trpc.webhooks.list.queryFilter()),
          queryClient.invalidateQueries(trpc.webhooks.deliveries.queryFilter()),
        ]);
        onDisabled();
      },
    }),
  );
  return (
    <Modal title="Disable this endpoint?" role="alertdialog" onClose={onClose}>
      <div className="stack">
        <p>
          <code className="wrap-anywhere">{endpoint.url}</code> receives no events while it is disabled: deliveries still pending end as
          failed without a request, and new events are not queued for it. Its secrets and delivery log are kept; enable it again at any
          time.
        </p>
        {disable.isError && (
          <p role="alert" className="error">
            {errorMessage(disable.error)}
          </p>
        )}
        <div className="actions">
          <button type="button" className="button" onClick={onClose} autoFocus>
            Cancel
          </button>
          <button
            type="button"
            className="button danger"
            disabled={disable.isPending}
            onClick={() => disable.mutate({ endpoint_id: endpoint.id, enabled: false })}
          >
            {disable.isPending ? "Disabling…" : "Disable endpoint"}
          </button>
        </div>
      </div>
    </Modal>
  );
}
