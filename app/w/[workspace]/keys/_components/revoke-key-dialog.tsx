"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Modal } from "@/app/_components/modal.tsx";
import { errorMessage, useTRPC } from "@/app/_components/trpc.ts";
import { maskedKey, type ApiKeyRow } from "./keys-table.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

export function RevokeKeyDialog({ apiKey, onClose }: { apiKey: ApiKeyRow; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.keys.revoke.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.keys.list.queryFilter());
        onClose();
      },
    }),
  );
  return (
    <Modal title={`Revoke “${apiKey.name}”?`} role="alertdialog" onClose={onClose}>
      <div className="stack">
        <p>
          Every request with <code>{maskedKey(apiKey)}</code> will be refused from now on. This cannot be undone.
        </p>
        {revoke.isError && (
          <p role="alert" className="error">
            {errorMessage(revoke.error)}
          </p>
        )}
        <DialogFooter onCancel={onClose} cancelFirst>
          <button type="button" className="button danger" disabled={revoke.isPending} onClick={() => revoke.mutate({ id: apiKey.id })}>
            {revoke.isPending ? "Revoking…" : "Revoke key"}
          </button>
        </DialogFooter>
      </div>
    </Modal>
  );
}
