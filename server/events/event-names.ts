// The event names of the service (interface.md "Events", D31), in a module of their own so the
// dashboard's client components can list them without the event log's server-only imports.
// The names are the contract and stay Portuguese; EVENT_DESCRIPTIONS says in English what
// each one means, for every place a person reads them: /docs/webhooks, the OpenAPI document,
// the dashboard's event picker and its delivery log.

export const EVENT_NAMES = [
  "mensagem.enviada",
  "mensagem.entregue",
  "mensagem.lida",
  "mensagem.falhou",
  "mensagem.recebida",
  "mensagem.cancelada",
  "fluxo.concluido",
  "fluxo.parado",
  "contato.criado",
  "contato.atualizado",
  "contato.apagado",
  "canal.pausado",
  "canal.retomado",
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

export const EVENT_DESCRIPTIONS: Record<EventName, { title: string; description: string }> = {
  "mensagem.enviada": { title: "Message sent", description: "The message left the service for the provider (status `sent`)." },
  "mensagem.entregue": {
    title: "Message delivered",
    description: "The message reached the recipient's device or mailbox (status `delivered`).",
  },
  "mensagem.lida": { title: "Message read", description: "The recipient read or opened the message (status `read`)." },
  "mensagem.falhou": {
    title: "Message failed",
    description: "The message could not be sent or delivered (status `failed`); `data.error` says why.",
  },
  "mensagem.recebida": {
    title: "Message received",
    description: "A contact wrote to a WhatsApp channel (an inbound message, status `received`); `data.text` holds its text.",
  },
  "mensagem.cancelada": {
    title: "Message canceled",
    description: "A message was canceled before it was handed to the provider (status `canceled`); it will not be sent.",
  },
  "fluxo.concluido": { title: "Journey completed", description: "The contact went through a flow to its end." },
  "fluxo.parado": {
    title: "Journey stopped",
    description: "The contact left a flow before its end, by unenrollment or by the flow being archived; `data.reason` when one was given.",
  },
  "contato.criado": {
    title: "Contact created",
    description: "A contact was created, through the API, a send, an enrollment or the dashboard.",
  },
  "contato.atualizado": {
    title: "Contact updated",
    description: "A stored value of a contact changed: address, name, tags, fields or opt-outs.",
  },
  "contato.apagado": {
    title: "Contact erased",
    description: "A contact was erased: its addresses, name, fields and message texts are gone; `data` holds its id only.",
  },
  "canal.pausado": {
    title: "Channel paused",
    description:
      "A channel stopped sending: WhatsApp refused it for good (`reason` `payment` or `policy`: every live send is refused), or its complaint or hard-bounce rate passed the workspace's threshold (`complaint_rate`, `bounce_rate`: journey sends only).",
  },
  "canal.retomado": {
    title: "Channel resumed",
    description: "A paused channel was resumed by an operator and sends again; `data.reason` is why it had been paused.",
  },
};

/** The English title of an event name ("Message sent"); the name itself when unknown. */
export function eventLabel(name: string): string {
  return EVENT_DESCRIPTIONS[name as EventName]?.title ?? name;
}

/** What an event means, in plain words (no Markdown backticks), for the dashboard. */
export function eventDescription(name: string): string {
  return (EVENT_DESCRIPTIONS[name as EventName]?.description ?? "").replaceAll("`", "");
}
