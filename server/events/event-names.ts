// The event names of the service (interface.md "Events", D31), in a module of their own so the
// dashboard's client components can list them without the event log's server-only imports.

export const EVENT_NAMES = [
  "mensagem.enviada",
  "mensagem.entregue",
  "mensagem.lida",
  "mensagem.falhou",
  "fluxo.concluido",
  "fluxo.parado",
  "contato.criado",
  "contato.atualizado",
] as const;

export type EventName = (typeof EVENT_NAMES)[number];
