"use client";

import { useMutation } from "@tanstack/react-query";
import { ConfirmDialog } from "@/app/_components/confirm-dialog.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { Member } from "./team-table.tsx";

type Props = { member: Member; onClose: () => void; onReset: (password: string) => void };

export function ResetPasswordDialog({ member, onClose, onReset }: Props) {
  const trpc = useTRPC();
  // gcTime 0: the new password leaves the mutation cache when this dialog unmounts.
  const reset = useMutation(trpc.team.resetPassword.mutationOptions({ gcTime: 0, onSuccess: ({ password }) => onReset(password) }));
  return (
    <ConfirmDialog
      title={`Reset the password of ${member.name ?? member.email}?`}
      confirmLabel="Reset password"
      pendingLabel="Resetting…"
      danger
      pending={reset.isPending}
      error={reset.error}
      onConfirm={() => reset.mutate({ email: member.email })}
      onClose={onClose}
    >
      A new password is generated and shown to you once. The old one stops working and {member.email} is signed out everywhere.
    </ConfirmDialog>
  );
}
