"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiFault } from "@/app/_components/api-error.ts";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { EVENT_DESCRIPTIONS, EVENT_NAMES, type EventName } from "@/server/events/event-names.ts";
import type { Endpoint } from "./webhook-labels.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

export type TestSent = { event: EventName; eventId: string; deliveryId: string };

type Props = { endpoint: Endpoint; onClose: () => void; onSent: (sent: TestSent) => void };

/**
 * "Send test event": one delivery of a sample event with `mode: "test"` to this endpoint only,
 * signed, retried and logged like any other. It is not in the event log: nothing happened.
 */
export function SendTestEventDialog({ endpoint, onClose, onSent }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [event, setEvent] = useState<EventName>("contato.criado");
  const send = useMutation(
    trpc.webhooks.sendTestEvent.mutationOptions({
      onSuccess: async (answer, input) => {
        await Promise.all([
          queryClient.invalidateQueries(trpc.webhooks.deliveries.queryFilter()),
          queryClient.invalidateQueries(trpc.webhooks.list.queryFilter()),
        ]);
        onSent({ event: input.event ?? "contato.criado", eventId: answer.event_id, deliveryId: answer.delivery_id });
      },
    }),
  );

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    send.mutate({ endpoint_id: endpoint.id, event });
  }

  return (
    <Modal title="Send a test event" onClose={onClose}>
      <form className="stack" onSubmit={onSubmit}>
        <p className="muted">
          A sample <code>{event}</code> event with made-up ids and <code>&quot;mode&quot;: &quot;test&quot;</code> goes to{" "}
          <code className="wrap-anywhere">{endpoint.url}</code> only, signed and retried like any delivery. Follow it in the delivery log.
        </p>
        <div className="field">
          <label htmlFor="test-event">Event</label>
          <select id="test-event" value={event} onChange={(e) => setEvent(e.target.value as EventName)} autoFocus>
            {EVENT_NAMES.map((name) => (
              <option key={name} value={name}>
                {name} — {EVENT_DESCRIPTIONS[name].title}
              </option>
            ))}
          </select>
        </div>
        {send.isError && (
          <p role="alert" className="error">
            {apiFault(send.error).message}
          </p>
        )}
        <DialogFooter onCancel={onClose}>
          <button type="submit" className="button primary" disabled={send.isPending}>
            {send.isPending ? "Sending…" : "Send test event"}
          </button>
        </DialogFooter>
      </form>
    </Modal>
  );
}
