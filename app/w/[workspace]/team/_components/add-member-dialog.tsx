"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { ROLE_LABELS } from "./team-table.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

export type Added = { email: string; password: string | null };

const ROLE_HINTS = {
  admin: "changes settings, keys, channels, webhooks, flows and the team",
  support: "reads messages, contacts and flows",
} as const;

type Props = { onClose: () => void; onAdded: (added: Added) => void };

/** Adds a person by e-mail: a new account gets a one-time password, an existing account joins as it is. */
export function AddMemberDialog({ onClose, onAdded }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // gcTime 0: the one-time password leaves the mutation cache when this dialog unmounts.
  const add = useMutation(trpc.team.add.mutationOptions({ gcTime: 0 }));
  const fault = add.isError ? apiFault(add.error) : null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const name = String(form.get("name") ?? "").trim();
    const role = form.get("role") === "admin" ? "admin" : "support";
    add.mutate(
      { email, role, ...(name ? { name } : {}) },
      {
        onSuccess: async (result) => {
          await queryClient.invalidateQueries(trpc.team.list.queryFilter());
          onAdded({ email, password: result.password });
        },
      },
    );
  }

  const emailFault = faultAt(fault, "email");
  return (
    <Modal title="Add a team member" onClose={onClose}>
      <form className="stack" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="member-email">E-mail</label>
          <input
            id="member-email"
            name="email"
            type="email"
            required
            maxLength={320}
            autoFocus
            aria-invalid={emailFault ? true : undefined}
            aria-describedby={emailFault ? "member-email-error" : undefined}
          />
          {emailFault && (
            <p id="member-email-error" className="error-text">
              {emailFault}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="member-name">
            Name <span className="muted">(optional, for a new account)</span>
          </label>
          <input id="member-name" name="name" maxLength={100} />
        </div>
        <fieldset>
          <legend>Role</legend>
          {(["support", "admin"] as const).map((role) => (
            <label key={role} className="choice">
              <input type="radio" name="role" value={role} defaultChecked={role === "support"} />
              {ROLE_LABELS[role]} <span className="muted">({ROLE_HINTS[role]})</span>
            </label>
          ))}
        </fieldset>
        {fault && !emailFault && (
          <p role="alert" className="error">
            {fault.message}
          </p>
        )}
        {emailFault && (
          <p role="alert" className="visually-hidden">
            {emailFault}
          </p>
        )}
        <DialogFooter onCancel={onClose}>
          <button type="submit" className="button primary" disabled={add.isPending}>
            {add.isPending ? "Adding…" : "Add member"}
          </button>
        </DialogFooter>
      </form>
    </Modal>
  );
}
