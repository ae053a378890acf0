import type { Database } from "../db/client.ts";
import { notFound } from "../lib/errors.ts";
import { channelOf } from "./registry.ts";
import { newId } from "../lib/ids.ts";
import { providerFor } from "./server-registry.ts";
import type { ProviderDetail } from "../providers/provider.ts";
import type { SendTestRequest } from "./channel-schemas.ts";
import { loadChannel } from "../providers/load-channel.ts";

export type SendTestResult = {
  to: string;
  outcome: "accepted" | "permanent" | "temporary" | "unknown";
  provider_message_id: string | null;
  error: string | null;
  retry_after_ms: number | null;
  detail: ProviderDetail;
};

/**
 * The dashboard's "send a test message to…": one real provider call straight from here, not
 * through the pipeline, and nothing is recorded (no message, no history, no usage). The
 * answer is the provider's, as the pipeline would see it.
 */
export async function sendTestMessage(database: Database, workspaceId: string, input: SendTestRequest): Promise<SendTestResult> {
  const channel = await loadChannel(database, input.channel_id);
  if (!channel || channel.workspaceId !== workspaceId) throw notFound("channel", "channel_id");
  const { to, content } = await channelOf(channel.type).testMessage(database, channel, input);
  const result = await providerFor(channel.type).send(channel, { id: newId("message"), workspaceId, contactId: "", to, content });
  return {
    to,
    outcome: result.outcome,
    provider_message_id: result.outcome === "accepted" ? result.providerMessageId : null,
    error: result.outcome === "accepted" ? null : result.error,
    retry_after_ms: result.outcome === "temporary" ? (result.retryAfterMs ?? null) : null,
    detail: result.detail,
  };
}
