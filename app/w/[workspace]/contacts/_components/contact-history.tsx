"use client";

import { useQuery } from "@tanstack/react-query";
import { Link } from "@/app/_components/link.tsx";
import type { ReactNode } from "react";
import { EventName } from "@/app/_components/event-name.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useWorkspaceFields, useWorkspaceTags } from "@/app/_components/use-catalog.ts";
import { When } from "@/app/_components/when.tsx";
import { CHANNEL_TYPES, optOutColumn } from "@/app/_channels/channel-words.ts";
import { CHANNEL_LABEL, CHANNEL_WORDS } from "@/app/_components/channel-names.ts";
import type { OptOutColumn } from "@/server/contacts/contact-schemas.ts";

export type HistoryEvent = { id: string; event: string; mode: string; data: unknown; timestamp: string };

type ContactData = {
  name?: string | null;
  phone?: string | null;
  email?: string | null;
  tags?: string[];
  fields?: Record<string, unknown>;
} & Partial<Record<OptOutColumn, boolean>>;
type EventData = ContactData & {
  id?: string;
  channelType?: string;
  status?: string;
  error?: string;
  text?: string;
  flow_id?: string;
  reason?: string;
};

type Names = { tag: (id: string) => string; field: (key: string) => string; flow: (id: string) => string };

const quote = (value: unknown) => (value === null || value === undefined || value === "" ? "nothing" : `“${String(value)}”`);
const CHANNEL = (type: string | undefined) =>
  type && type in CHANNEL_LABEL ? CHANNEL_LABEL[type as keyof typeof CHANNEL_LABEL] : "WhatsApp";

/** What changed between two states of a contact, as short phrases. */
export function contactChanges(before: ContactData, after: ContactData, names: Names): string[] {
  const out: string[] = [];
  for (const [key, label] of [
    ["name", "name"],
    ["phone", "phone"],
    ["email", "e-mail"],
  ] as const) {
    if ((before[key] ?? null) !== (after[key] ?? null)) out.push(`${label} ${quote(before[key])} → ${quote(after[key])}`);
  }
  const was = new Set(before.tags ?? []);
  const now = new Set(after.tags ?? []);
  const added = [...now].filter((t) => !was.has(t)).map(names.tag);
  const removed = [...was].filter((t) => !now.has(t)).map(names.tag);
  if (added.length) out.push(`tag${added.length > 1 ? "s" : ""} ${added.join(", ")} added`);
  if (removed.length) out.push(`tag${removed.length > 1 ? "s" : ""} ${removed.join(", ")} removed`);
  const keys = new Set([...Object.keys(before.fields ?? {}), ...Object.keys(after.fields ?? {})]);
  for (const key of keys) {
    const a = before.fields?.[key];
    const b = after.fields?.[key];
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${names.field(key)} ${quote(a)} → ${quote(b)}`);
  }
  for (const type of CHANNEL_TYPES) {
    const key = optOutColumn(type);
    if (Boolean(before[key]) !== Boolean(after[key]))
      out.push(after[key] ? `opted out of ${CHANNEL_WORDS[type]}` : `opted in to ${CHANNEL_WORDS[type]} again`);
  }
  return out;
}

/** A contact's state when it was created, in phrases. */
function createdWith(data: ContactData, names: Names): string[] {
  const out: string[] = [];
  if (data.name) out.push(`name ${quote(data.name)}`);
  if (data.phone) out.push(`phone ${data.phone}`);
  if (data.email) out.push(`e-mail ${data.email}`);
  if (data.tags?.length) out.push(`tags ${data.tags.map(names.tag).join(", ")}`);
  for (const [key, value] of Object.entries(data.fields ?? {})) out.push(`${names.field(key)} ${quote(value)}`);
  for (const type of CHANNEL_TYPES) if (data[optOutColumn(type)]) out.push(`opted out of ${CHANNEL_WORDS[type]}`);
  return out;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** An event about a contact in a sentence: what changed, which message, which flow. */
function EventSentence({
  event,
  older,
  workspace,
  names,
}: {
  event: HistoryEvent;
  older: HistoryEvent | undefined;
  workspace: string;
  names: Names;
}) {
  const d = (event.data && typeof event.data === "object" ? event.data : {}) as EventData;
  const base = `/w/${encodeURIComponent(workspace)}`;
  const message = d.id ? (
    <Link href={`${base}/messages/${encodeURIComponent(d.id)}`}>
      <code>{d.id}</code>
    </Link>
  ) : null;
  const flow = d.flow_id ? (
    <Link href={`${base}/flows/${encodeURIComponent(d.flow_id)}?run=${encodeURIComponent(d.id ?? "")}`}>{names.flow(d.flow_id)}</Link>
  ) : null;
  let text: ReactNode;
  switch (event.event) {
    case "contato.criado": {
      const values = createdWith(d, names);
      text = values.length ? `Created with ${values.join(", ")}.` : "Created.";
      break;
    }
    case "contato.atualizado": {
      const before =
        older && (older.event === "contato.criado" || older.event === "contato.atualizado") ? (older.data as ContactData) : null;
      const changes = before ? contactChanges(before, d, names) : [];
      text = changes.length ? `${capital(changes.join("; "))}.` : "Updated.";
      break;
    }
    case "mensagem.enviada":
      text = (
        <>
          {CHANNEL(d.channelType)} message {message} sent.
        </>
      );
      break;
    case "mensagem.entregue":
      text = (
        <>
          {CHANNEL(d.channelType)} message {message} delivered.
        </>
      );
      break;
    case "mensagem.lida":
      text = (
        <>
          {CHANNEL(d.channelType)} message {message} read.
        </>
      );
      break;
    case "mensagem.falhou":
      text = (
        <>
          {CHANNEL(d.channelType)} message {message} failed{d.error ? `: ${d.error}` : "."}
        </>
      );
      break;
    case "mensagem.cancelada":
      text = (
        <>
          {CHANNEL(d.channelType)} message {message} canceled before it was sent.
        </>
      );
      break;
    case "mensagem.recebida":
      text = (
        <>
          Wrote {message} on WhatsApp{d.text ? `: “${d.text}”` : "."}
        </>
      );
      break;
    case "fluxo.concluido":
      text = <>Went through the flow {flow} to its end.</>;
      break;
    case "fluxo.parado":
      text = (
        <>
          Left the flow {flow}
          {d.reason ? `: ${d.reason}` : "."}
        </>
      );
      break;
    default:
      text = null;
  }
  return <span className="history-text">{text}</span>;
}

/**
 * The events recorded about a contact, newest first, each in a sentence (what changed, which
 * message or flow), its data unfolding as JSON.
 */
export function ContactHistory({ events, workspace }: { events: HistoryEvent[]; workspace: string }) {
  const trpc = useTRPC();
  const tags = useWorkspaceTags();
  const fields = useWorkspaceFields();
  const flows = useQuery(trpc.flows.all.queryOptions());
  const names: Names = {
    tag: (id) => `“${tags.byId.get(id)?.name ?? id}”`,
    field: (key) => fields.data?.find((f) => f.key === key)?.name ?? key,
    flow: (id) => flows.data?.find((f) => f.id === id)?.name ?? id,
  };
  if (events.length === 0) return <p className="empty">No events yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Events of this contact, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">What happened</th>
            <th scope="col">Mode</th>
            <th scope="col">Time</th>
            <th scope="col">Data</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event, i) => (
            <tr key={event.id}>
              <th scope="row">
                <EventName name={event.event} describe />
              </th>
              <td>
                <EventSentence event={event} older={olderContactEvent(events, i)} workspace={workspace} names={names} />
              </td>
              <td>
                <span className={`badge ${event.mode}`}>{event.mode}</span>
              </td>
              <td>
                <When value={event.timestamp} />
              </td>
              <td>
                <details>
                  <summary>Show data</summary>
                  <pre className="json">{JSON.stringify(event.data, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The contact event before the one at `index` (the list is newest first): the state an update changed. */
function olderContactEvent(events: HistoryEvent[], index: number): HistoryEvent | undefined {
  return events.slice(index + 1).find((e) => e.event === "contato.criado" || e.event === "contato.atualizado");
}
