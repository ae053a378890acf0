import type { ChannelType } from "../generated/prisma/enums.ts";
// The `data` of a message's `mensagem.*` events (interface.md "Body shape", D31), built in one
// place for every path that records one: `id`, `channelType`, `status`, `contact`, the
// caller's `metadata` given on send (D57, `{}` when none) and, for `failed`, `error` and
// `error_code` (D73: the provider's or our code, null when none).

export type MessageEventSource = {
  id: string;
  channel: ChannelType;
  contact_id: string;
  metadata: Record<string, string> | null;
};

export function messageEventData(
  m: MessageEventSource,
  status: string,
  error?: string,
  errorCode?: string | null,
): Record<string, unknown> {
  return {
    id: m.id,
    channelType: m.channel,
    status,
    contact: m.contact_id,
    metadata: m.metadata ?? {},
    ...(status === "failed" ? { error: error ?? "failed", error_code: errorCode ?? null } : {}),
  };
}
