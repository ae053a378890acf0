"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/_components/trpc.ts";
import { AddMemberDialog } from "./add-member-dialog.tsx";
import { ChangeRoleDialog } from "./change-role-dialog.tsx";
import { PasswordDialog, type ShownPassword } from "./password-dialog.tsx";
import { RemoveMemberDialog } from "./remove-member-dialog.tsx";
import { ResetPasswordDialog } from "./reset-password-dialog.tsx";
import { TeamTable, type Member } from "./team-table.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

type Open = { kind: "role" | "remove" | "reset"; member: Member } | null;

/** The Team page: the members with their roles; add, change a role, remove, reset a password. */
export function TeamView({ currentUserId }: { currentUserId: string }) {
  const trpc = useTRPC();
  const members = useQuery(trpc.team.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const [shown, setShown] = useState<ShownPassword | null>(null);
  const [done, setDone] = useState<string | null>(null);

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Team</h1>
          <p className="muted">
            People who can sign in to this workspace. Admins change settings, keys, channels, webhooks, flows and the team; support staff
            read messages, contacts and flows.
          </p>
        </div>
        <button type="button" className="button primary" onClick={() => setAdding(true)}>
          Add member
        </button>
      </div>
      <p role="status" className="ok">
        {done ?? ""}
      </p>
      <QueryState query={members} what="the team" />
      {members.data && (
        <TeamTable members={members.data} currentUserId={currentUserId} onAction={(kind, member) => setOpen({ kind, member })} />
      )}
      {adding && (
        <AddMemberDialog
          onClose={() => setAdding(false)}
          onAdded={(added) => {
            setAdding(false);
            if (added.password) setShown({ email: added.email, password: added.password, reason: "added" });
            else setDone(`${added.email} already had an account and can now sign in to this workspace with their password.`);
          }}
        />
      )}
      {open?.kind === "role" && (
        <ChangeRoleDialog
          member={open.member}
          onClose={() => setOpen(null)}
          onChanged={(message) => {
            setOpen(null);
            setDone(message);
          }}
        />
      )}
      {open?.kind === "remove" && (
        <RemoveMemberDialog
          member={open.member}
          onClose={() => setOpen(null)}
          onRemoved={(message) => {
            setOpen(null);
            setDone(message);
          }}
        />
      )}
      {open?.kind === "reset" && (
        <ResetPasswordDialog
          member={open.member}
          onClose={() => setOpen(null)}
          onReset={(password) => {
            setOpen(null);
            setShown({ email: open.member.email, password, reason: "reset" });
          }}
        />
      )}
      {shown && <PasswordDialog shown={shown} onClose={() => setShown(null)} />}
    </>
  );
}
