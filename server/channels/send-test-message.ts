import type { Database } from "../db/client.ts";
import { normalizeEmail } from "../lib/email.ts";
import { AppError, invalid, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { normalizePhone } from "../lib/phone.ts";
import { escapeHtml } from "../lib/html.ts";
import { providerFor } from "../providers/registry.ts";
import type { Content, ProviderDetail } from "../providers/provider.ts";
import { checkTemplateSend, templateContent } from "../whatsapp/check-template-send.ts";
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
  let to: string;
  let content: Content;
  if (channel.type === "whatsapp") {
    const workspace = await database.prisma.workspace.findUnique({ where: { id: workspaceId }, select: { defaultCountry: true } });
    to = normalizePhone(input.to, workspace?.defaultCountry ?? null, "to");
    if (input.template) {
      // D42's checks, against this channel's templates; the parameters' texts go as typed.
      const { template, parameters } = await checkTemplateSend(database.query, { id: channel.id, workspaceId }, input.template).catch(
        (err: unknown) => {
          throw err instanceof AppError && err.param
            ? new AppError(err.code, err.message, { param: err.param.replace(/^whatsapp\./, "") })
            : err;
        },
      );
      content = templateContent(template, parameters, input.template.parameters ?? {});
    } else {
      content = { body: input.text ?? "" };
    }
  } else {
    if (input.template) throw invalid("unknown_parameter", "Only a WhatsApp channel sends templates.", "template");
    to = normalizeEmail(input.to, "to");
    content = { subject: "Test message", html: `<p>${escapeHtml(input.text ?? "").replace(/\r?\n/g, "<br>")}</p>` };
  }
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
