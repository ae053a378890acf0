"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/app/_components/trpc.ts";
import { ConfirmDialog } from "@/app/_components/confirm-dialog.tsx";
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
    <ConfirmDialog
      title="Disable this endpoint?"
      confirmLabel="Disable endpoint"
      pendingLabel="Disabling…"
      danger
      pending={disable.isPending}
      error={disable.error}
      onConfirm={() => disable.mutate({ endpoint_id: endpoint.id, enabled: false })}
      onClose={onClose}
    >
      <code className="wrap-anywhere">{endpoint.url}</code> receives no events while it is disabled: deliveries still pending end as failed
      without a request, and new events are not queued for it. Its secrets and delivery log are kept; enable it again at any time.
    </ConfirmDialog>
  );
}
