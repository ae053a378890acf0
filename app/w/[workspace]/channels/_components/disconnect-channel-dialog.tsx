"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Modal } from "@/app/_components/modal.tsx";
import { errorMessage, useTRPC } from "@/app/_components/trpc.ts";
import type { Channel } from "@/server/channels/channel-schemas.ts";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

type Props = { channel: Channel; onClose: () => void; onDisconnected: () => void };

/** Confirms a disconnection: the channel stops sending at once; its row and its messages stay. */
export function DisconnectChannelDialog({ channel, onClose, onDisconnected }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const disconnect = useMutation(
    trpc.channels.disconnect.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.channels.list.queryFilter());
        onDisconnected();
      },
    }),
  );
  return (
    <Modal title={`Disconnect “${channel.name}”?`} role="alertdialog" onClose={onClose}>
      <div className="stack">
        <p>
          <code>{channel.external_id}</code> stops sending at once: live messages still queued for it will fail. Its messages and their
          history are kept, and late provider reports still apply. To send through it again, connect it again.
        </p>
        {disconnect.isError && (
          <p role="alert" className="error">
            {errorMessage(disconnect.error)}
          </p>
        )}
        <DialogFooter onCancel={onClose} cancelFirst>
          <button
            type="button"
            className="button danger"
            disabled={disconnect.isPending}
            onClick={() => disconnect.mutate({ channel_id: channel.id })}
          >
            {disconnect.isPending ? "Disconnecting…" : "Disconnect channel"}
          </button>
        </DialogFooter>
      </div>
    </Modal>
  );
}
