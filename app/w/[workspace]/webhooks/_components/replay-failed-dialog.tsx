"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { FieldError } from "@/app/_components/form-feedback.tsx";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useFocusFirstInvalid } from "@/app/_components/use-focus-invalid.ts";
import type { Endpoint } from "./webhook-labels.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

const DAY_MS = 24 * 60 * 60_000;

/** A `datetime-local` value (the reader's time zone, to the minute) for an instant. */
function localInput(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value as the ISO instant the server compares, or null. */
function instant(value: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

type Props = { endpoint: Endpoint; onClose: () => void; onReplayed: (count: number) => void };

/** Sends every failed delivery of the endpoint created in [from, to) again, with a fresh retry schedule (D33). */
export function ReplayFailedDialog({ endpoint, onClose, onReplayed }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const [defaults] = useState(() => {
    // The end is a minute ahead so that deliveries of the current minute are in the range.
    const now = Date.now() + 60_000;
    return { from: localInput(now - DAY_MS), to: localInput(now) };
  });
  const [local, setLocal] = useState<Record<string, string>>({});
  const replay = useMutation(
    trpc.webhooks.replayFailed.mutationOptions({
      onSuccess: async (answer) => {
        await Promise.all([
          queryClient.invalidateQueries(trpc.webhooks.deliveries.queryFilter()),
          queryClient.invalidateQueries(trpc.webhooks.list.queryFilter()),
        ]);
        onReplayed(answer.replayed);
      },
    }),
  );
  const fault = replay.isError ? apiFault(replay.error) : null;
  const errorAt = (param: string) => local[param] ?? faultAt(fault, param);
  const general = fault && !faultAt(fault, "from") && !faultAt(fault, "to") ? fault.message : null;
  useFocusFirstInvalid(form, replay.error ?? (Object.keys(local).length ? local : null));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const from = instant(String(data.get("from") ?? ""));
    const to = instant(String(data.get("to") ?? ""));
    const errors: Record<string, string> = {};
    if (!from) errors.from = "Give the start of the range.";
    if (!to) errors.to = "Give the end of the range.";
    else if (from && to <= from) errors.to = "The end must come after the start.";
    setLocal(errors);
    if (!from || !to || Object.keys(errors).length > 0) return;
    replay.mutate({ endpoint_id: endpoint.id, from, to });
  }

  const fromError = errorAt("from");
  const toError = errorAt("to");
  return (
    <Modal title="Replay failed deliveries" onClose={onClose}>
      <form ref={form} className="stack" onSubmit={onSubmit} noValidate>
        <p className="muted">
          Every <strong>failed</strong> delivery to <code className="wrap-anywhere">{endpoint.url}</code> created in this range is sent
          again, with the same event id and body and a fresh retry schedule. Times are in your time zone.
        </p>
        <div className="form-grid">
          <div className="field">
            <label htmlFor="replay-from">From</label>
            <input
              id="replay-from"
              name="from"
              type="datetime-local"
              required
              defaultValue={defaults.from}
              aria-invalid={fromError ? true : undefined}
              aria-describedby={fromError ? "replay-from-error" : undefined}
            />
            <FieldError id="replay-from-error" message={fromError} />
          </div>
          <div className="field">
            <label htmlFor="replay-to">To</label>
            <input
              id="replay-to"
              name="to"
              type="datetime-local"
              required
              defaultValue={defaults.to}
              aria-invalid={toError ? true : undefined}
              aria-describedby={toError ? "replay-to-error" : undefined}
            />
            <FieldError id="replay-to-error" message={toError} />
          </div>
        </div>
        {general && (
          <p role="alert" className="error">
            {general}
          </p>
        )}
        <DialogFooter onCancel={onClose}>
          <button type="submit" className="button primary" disabled={replay.isPending}>
            {replay.isPending ? "Replaying…" : "Replay failed deliveries"}
          </button>
        </DialogFooter>
      </form>
    </Modal>
  );
}
