"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Modal } from "@/app/_components/modal.tsx";
import { errorMessage, useTRPC } from "@/app/_components/trpc.ts";
import type { Endpoint } from "./webhook-labels.tsx";

type Props = { endpoint: Endpoint; onClose: () => void; onDeleted: () => void };

/** Confirms deleting an endpoint with its secrets and its delivery log. Cannot be undone. */
export function DeleteEndpointDialog({ endpoint, onClose, onDeleted }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        queryClient.removeQueries(trpc.webhooks.deliveries.queryFilter({ endpoint_id: endpoint.id }));
        await queryClient.invalidateQueries(trpc.webhooks.list.queryFilter());
        onDeleted();
      },
    }),
  );
  return (
    <Modal title="Delete this endpoint?" role="alertdialog" onClose={onClose}>
      <div className="stack">
        <p>
          <code className="wrap-anywhere">{endpoint.url}</code> stops receiving events at once, and its secrets and its whole delivery log
          are deleted. This cannot be undone: to receive events there again, add the endpoint again (with a new secret).
        </p>
        {remove.isError && (
          <p role="alert" className="error">
            {errorMessage(remove.error)}
          </p>
        )}
        <div className="actions">
          <button type="button" className="button" onClick={onClose} autoFocus>
            Cancel
          </button>
          <button
            type="button"
            className="button danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ endpoint_id: endpoint.id })}
          >
            {remove.isPending ? "Deleting…" : "Delete endpoint"}
          </button>
        </div>
      </div>
    </Modal>
  );
}
