"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmDialog } from "@/app/_components/confirm-dialog.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { Member } from "./team-table.tsx";

type Props = { member: Member; onClose: () => void; onRemoved: (message: string) => void };

export function RemoveMemberDialog({ member, onClose, onRemoved }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const who = member.name ?? member.email;
  const remove = useMutation(
    trpc.team.remove.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.team.list.queryFilter());
        onRemoved(`${who} was removed from the team.`);
      },
    }),
  );
  return (
    <ConfirmDialog
      title={`Remove ${who}?`}
      confirmLabel="Remove member"
      pendingLabel="Removing…"
      danger
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate({ user_id: member.user_id })}
      onClose={onClose}
    >
      {member.email} will no longer be able to open this workspace. Their account stays, with any other workspaces it belongs to.
    </ConfirmDialog>
  );
}
