"use client";

import type { inferRouterOutputs } from "@trpc/server";
import { When } from "@/app/_components/when.tsx";
import type { AppRouter } from "@/server/api/root.ts";

export type Member = inferRouterOutputs<AppRouter>["team"]["list"][number];

export const ROLE_LABELS = { admin: "Admin", support: "Support" } as const;

type Props = { members: Member[]; currentUserId: string; onAction: (kind: "role" | "remove" | "reset", member: Member) => void };

/** The members, in the order they joined, with their actions. */
export function TeamTable({ members, currentUserId, onAction }: Props) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Members of this workspace</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Member since</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const who = m.name ?? m.email;
            const self = m.user_id === currentUserId;
            return (
              <tr key={m.user_id}>
                <th scope="row">
                  <span>
                    {m.name ?? <span className="muted">No name</span>}
                    {self && <span className="muted"> (you)</span>}
                  </span>
                </th>
                <td>{m.email}</td>
                <td>
                  <span className={`badge role-${m.role}`}>{ROLE_LABELS[m.role]}</span>
                </td>
                <td>
                  <When value={m.joined_at} />
                </td>
                <td>
                  <div className="row-actions">
                    <button type="button" className="button small" aria-label={`Change role of ${who}`} onClick={() => onAction("role", m)}>
                      Change role
                    </button>
                    {!self && (
                      <button
                        type="button"
                        className="button small"
                        aria-label={`Reset password of ${who}`}
                        onClick={() => onAction("reset", m)}
                      >
                        Reset password
                      </button>
                    )}
                    <button
                      type="button"
                      className="button danger small"
                      aria-label={`Remove ${who}`}
                      onClick={() => onAction("remove", m)}
                    >
                      Remove
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
