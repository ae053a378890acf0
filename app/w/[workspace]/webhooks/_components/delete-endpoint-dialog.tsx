"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/app/_components/trpc.ts";
import { ConfirmDialog } from "@/app/_components/confirm-dialog.tsx";
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
    <ConfirmDialog
      title="Delete this endpoint?"
      confirmLabel="Delete endpoint"
      pendingLabel="Deleting…"
      danger
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate({ endpoint_id: endpoint.id })}
      onClose={onClose}
    >
      <code className="wrap-anywhere">{endpoint.url}</code> stops receiving events at once, and its secrets and its whole delivery log are
      deleted. This cannot be undone: to receive events there again, add the endpoint again (with a new secret).
    </ConfirmDialog>
  );
}
