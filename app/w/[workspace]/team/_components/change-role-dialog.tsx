"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { apiFault } from "@/app/_components/api-error.ts";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { ROLE_LABELS, type Member } from "./team-table.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

type Props = { member: Member; onClose: () => void; onChanged: (message: string) => void };

export function ChangeRoleDialog({ member, onClose, onChanged }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const change = useMutation(trpc.team.changeRole.mutationOptions());
  const who = member.name ?? member.email;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const role = new FormData(event.currentTarget).get("role") === "admin" ? "admin" : "support";
    change.mutate(
      { user_id: member.user_id, role },
      {
        onSuccess: async () => {
          await queryClient.invalidateQueries(trpc.team.list.queryFilter());
          onChanged(`${who} is now ${ROLE_LABELS[role].toLowerCase()}.`);
        },
      },
    );
  }

  return (
    <Modal title={`Change the role of ${who}`} onClose={onClose}>
      <form className="stack" onSubmit={onSubmit}>
        <fieldset>
          <legend>Role</legend>
          {(["admin", "support"] as const).map((role) => (
            <label key={role} className="choice">
              <input type="radio" name="role" value={role} defaultChecked={role === member.role} />
              {ROLE_LABELS[role]}
            </label>
          ))}
        </fieldset>
        {change.isError && (
          <p role="alert" className="error">
            {apiFault(change.error).message}
          </p>
        )}
        <DialogFooter onCancel={onClose}>
          <button type="submit" className="button primary" disabled={change.isPending}>
            {change.isPending ? "Saving…" : "Save role"}
          </button>
        </DialogFooter>
      </form>
    </Modal>
  );
}
