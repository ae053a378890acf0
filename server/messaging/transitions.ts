// Message status rules (spec "Message status", D8): queued → sent → delivered → read, with
// failed as the other outcome, reached only from queued or sent. Status never moves back: a
// late or out-of-order report is kept in the history but changes nothing. A `read` report for
// a message still `sent` also sets `delivered_at` and emits `mensagem.entregue` first.
// `canceled` (D76) is reached only from `queued` and is final: a late report changes nothing.

export type Status = "queued" | "sent" | "delivered" | "read" | "failed" | "canceled";

const RANK: Record<Status, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4, canceled: 5 };

export const EVENT_OF: Record<
  Exclude<Status, "queued">,
  "mensagem.enviada" | "mensagem.entregue" | "mensagem.lida" | "mensagem.falhou" | "mensagem.cancelada"
> = {
  sent: "mensagem.enviada",
  delivered: "mensagem.entregue",
  read: "mensagem.lida",
  failed: "mensagem.falhou",
  canceled: "mensagem.cancelada",
};

/** The states to pass through, in order, to apply `report` to `current`; empty when ignored. */
export function transitionPath(current: Status, report: Exclude<Status, "queued">): Exclude<Status, "queued">[] {
  if (current === "failed" || current === "read" || current === "canceled") return [];
  if (report === "canceled") return current === "queued" ? ["canceled"] : [];
  if (report === "failed") return current === "queued" || current === "sent" ? ["failed"] : [];
  if (RANK[report] <= RANK[current]) return [];
  const path: Exclude<Status, "queued">[] = [];
  for (const s of ["sent", "delivered", "read"] as const) {
    if (RANK[s] > RANK[current] && RANK[s] <= RANK[report]) path.push(s);
  }
  return path;
}
