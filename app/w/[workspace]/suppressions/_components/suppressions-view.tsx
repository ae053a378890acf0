"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { ConfirmDialog } from "@/app/_components/confirm-dialog.tsx";
import { useCursorPages } from "@/app/_components/cursor-pages.ts";
import { CreateFormFooter, FieldError } from "@/app/_components/form-feedback.tsx";
import { Link } from "@/app/_components/link.tsx";
import { Pager } from "@/app/_components/pager.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useFocusFirstInvalid } from "@/app/_components/use-focus-invalid.ts";
import { When } from "@/app/_components/when.tsx";
import type { Suppression } from "@/server/suppressions/suppression-schemas.ts";

const REASON_LABEL: Record<Suppression["reason"], string> = {
  hard_bounce: "Bounced",
  complaint: "Marked as spam",
  manual: "Added by hand",
};

const REASON_HINT: Record<Suppression["reason"], string> = {
  hard_bounce: "The receiving server refused this address for good: it does not exist or no longer takes mail.",
  complaint: "The recipient reported a mail as spam.",
  manual: "An admin or an API call added it.",
};

/** The live suppression list, searched by address and reason, with the message that caused each entry. */
export function SuppressionsView({ workspace, canManage }: { workspace: string; canManage: boolean }) {
  const trpc = useTRPC();
  const [q, setQ] = useState("");
  const [reason, setReason] = useState<Suppression["reason"] | "">("");
  const [removing, setRemoving] = useState<Suppression | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const pages = useCursorPages();
  const list = useQuery({
    ...trpc.suppressions.search.queryOptions({ q: q.trim(), reason: reason || undefined, after: pages.after }),
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Suppressions</h1>
          <p className="muted">
            Live e-mail is never sent to these addresses: they bounced for good, their owner marked a mail as spam, or they were added by
            hand. Sending to them anyway harms the reputation of your sending domain.
          </p>
        </div>
      </div>
      {canManage ? <AddSuppressionForm /> : <p className="note">You have read-only access. Ask an admin to add or remove an address.</p>}
      <p role="status" className="ok">
        {done ?? ""}
      </p>

      <section className="section" aria-labelledby="suppressions-heading">
        <h2 id="suppressions-heading">Suppressed addresses</h2>
        <div className="filters">
          <div className="field">
            <label htmlFor="suppressions-q">Address</label>
            <input
              id="suppressions-q"
              type="search"
              value={q}
              placeholder="Part of an address"
              autoComplete="off"
              onChange={(e) => {
                setQ(e.target.value);
                pages.restart();
              }}
            />
          </div>
          <div className="field">
            <label htmlFor="suppressions-reason">Reason</label>
            <select
              id="suppressions-reason"
              value={reason}
              onChange={(e) => {
                setReason(e.target.value as Suppression["reason"] | "");
                pages.restart();
              }}
            >
              <option value="">Any reason</option>
              {Object.entries(REASON_LABEL).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <QueryState query={list} what="the suppressed addresses" lines={5} />
        {list.data &&
          (list.data.items.length === 0 ? (
            <p className="empty">{q || reason ? "No suppressed address matches." : "No address is suppressed."}</p>
          ) : (
            <SuppressionsTable
              workspace={workspace}
              items={list.data.items}
              busy={list.isFetching}
              canManage={canManage}
              onRemove={setRemoving}
            />
          ))}
        {list.data && (pages.page > 1 || list.data.next) ? (
          <Pager
            label="Pages of suppressed addresses"
            page={pages.page}
            hasNext={!!list.data.next}
            onPrevious={pages.previous}
            onNext={() => pages.next(list.data.next)}
          />
        ) : null}
      </section>

      {removing && (
        <RemoveDialog
          suppression={removing}
          onClose={() => setRemoving(null)}
          onDone={(email) => {
            setRemoving(null);
            setDone(`${email} was removed: e-mail to it goes out again.`);
          }}
        />
      )}
    </>
  );
}

type TableProps = { workspace: string; items: Suppression[]; busy: boolean; canManage: boolean; onRemove: (s: Suppression) => void };

function SuppressionsTable({ workspace, items, busy, canManage, onRemove }: TableProps) {
  const base = `/w/${encodeURIComponent(workspace)}`;
  return (
    <div className="table-wrap" aria-busy={busy}>
      <table className="suppressions">
        <caption className="visually-hidden">Suppressed addresses, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Address</th>
            <th scope="col">Reason</th>
            <th scope="col">Caused by</th>
            <th scope="col">Added</th>
            {canManage && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {items.map((s) => (
            <tr key={s.email}>
              <th scope="row" className="address">
                {s.email}
              </th>
              <td>
                <div>
                  <span title={REASON_HINT[s.reason]}>{REASON_LABEL[s.reason]}</span>
                  {s.detail && <p className="muted small">{s.detail}</p>}
                </div>
              </td>
              <td>
                {s.message_id ? (
                  <Link href={`${base}/messages/${encodeURIComponent(s.message_id)}`}>{s.message_id}</Link>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td>
                <When value={s.created_at} />
              </td>
              {canManage && (
                <td>
                  <button type="button" className="button small" aria-label={`Remove ${s.email}…`} onClick={() => onRemove(s)}>
                    Remove…
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RemoveDialog({
  suppression,
  onClose,
  onDone,
}: {
  suppression: Suppression;
  onClose: () => void;
  onDone: (email: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.suppressions.remove.mutationOptions());
  const risk =
    suppression.reason === "hard_bounce"
      ? "It bounced for good: unless the address was fixed, the next mail bounces too, and bounces lower your sending domain's reputation."
      : suppression.reason === "complaint"
        ? "Its owner marked your mail as spam: mail them again only if they asked for it, or more complaints may follow and mailbox providers may block your domain."
        : "It was added by hand.";
  return (
    <ConfirmDialog
      title={`Remove ${suppression.email}?`}
      confirmLabel="Remove"
      pendingLabel="Removing…"
      danger
      pending={remove.isPending}
      error={remove.error}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(
          { email: suppression.email },
          {
            onSuccess: async () => {
              await queryClient.invalidateQueries(trpc.suppressions.search.queryFilter());
              onDone(suppression.email);
            },
          },
        )
      }
    >
      Live e-mail to this address will be sent again, by the API and by flows. {risk} A new bounce or complaint suppresses it again.
    </ConfirmDialog>
  );
}

function AddSuppressionForm() {
  const trpc = useTRPC();
  const [done, setDone] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const add = useMutation(trpc.suppressions.add.mutationOptions());
  useFocusFirstInvalid(form, add.error);
  const fault = add.isError ? apiFault(add.error) : null;
  const emailError = faultAt(fault, "email");
  const general = fault && !emailError ? fault.message : null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = event.currentTarget;
    const email = String(new FormData(target).get("email") ?? "");
    setDone(null);
    add.mutate(
      { email, reason: "manual" },
      {
        onSuccess: async (s) => {
          await queryClient.invalidateQueries(trpc.suppressions.search.queryFilter());
          target.reset();
          setDone(`${s.email} is suppressed: live e-mail to it is refused.`);
        },
      },
    );
  }

  return (
    <form ref={form} className="inline-form" aria-label="Suppress an address" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor="suppress-email">Address to suppress</label>
        <input
          id="suppress-email"
          name="email"
          type="email"
          required
          maxLength={320}
          placeholder="ana@example.com"
          autoComplete="off"
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? "suppress-email-error" : undefined}
        />
        <FieldError id="suppress-email-error" message={emailError} />
      </div>
      <CreateFormFooter label="Suppress" pending={add.isPending} error={general} done={done} />
    </form>
  );
}
