"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/app/_components/trpc.ts";
import { ConfirmDialog } from "@/app/_components/confirm-dialog.tsx";
import type { Endpoint } from "./webhook-labels.tsx";

export type Rotated = { url: string; secret: string; previousExpiresAt: string };

type Props = { endpoint: Endpoint; onClose: () => void; onRotated: (rotated: Rotated) => void };

/** Confirms a rotation (D32): a new secret now, the current one still valid for 24 hours. */
export function RotateSecretDialog({ endpoint, onClose, onRotated }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // gcTime 0: the new secret leaves the mutation cache as soon as this dialog unmounts.
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      gcTime: 0,
      onSuccess: async (answer) => {
        await queryClient.invalidateQueries(trpc.webhooks.list.queryFilter());
        onRotated({ url: endpoint.url, secret: answer.secret, previousExpiresAt: answer.previous_expires_at });
      },
    }),
  );
  return (
    <ConfirmDialog
      title="Rotate the signing secret?"
      confirmLabel="Rotate secret"
      pendingLabel="Rotating…"
      pending={rotate.isPending}
      error={rotate.error}
      onConfirm={() => rotate.mutate({ endpoint_id: endpoint.id })}
      onClose={onClose}
    >
      A new secret for <code className="wrap-anywhere">{endpoint.url}</code> is made now and shown once. The current secret{" "}
      <strong>stays valid for 24 hours</strong>: until then every delivery carries one <code>v1=</code> signature for each secret, so your
      receiver keeps accepting deliveries while you switch it to the new one.
    </ConfirmDialog>
  );
}
