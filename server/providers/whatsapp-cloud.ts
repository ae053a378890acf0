import { activeTraceparent } from "../observability/tracing.ts";
import { z } from "zod";
import { env } from "../lib/env.ts";
import { callFailure, firstHeader, postJson, retryAfterMs, type HttpAnswer } from "./http-post.ts";
import {
  DEFAULT_GRAPH_API_BASE_URL,
  HTTP_IN_FLIGHT_PER_CHANNEL,
  MEDIA_TYPES,
  type ChannelConfig,
  type Content,
  type OutboundMessage,
  type ProviderClient,
  type ProviderDetail,
  type ProviderResult,
} from "./provider.ts";
import { META_ERROR_CODES, metaErrorCodeText } from "./meta-error-codes.ts";
import { isWhatsAppUserId } from "../lib/whatsapp-user-id.ts";
import { cloudTemplatePayload, type TemplateContent } from "./whatsapp-template.ts";

// Meta's WhatsApp Cloud API (operations.md "Provider endpoints"):
// POST <api_base_url>/<phone_number_id>/messages with the access token as bearer, one message
// per call. The answer's messages[0].id (a wamid) becomes the provider message id. Our message
// id goes along as `biz_opaque_callback_data`, which Meta returns in every status webhook of the
// message: a report finds its message even when the send's answer (and so the wamid) was lost.

export const WHATSAPP_TIMEOUT_MS = 15_000;

/** Graph error codes that mean the request was refused, "try again later", rather than "never" (D45, D90). */
export const TEMPORARY_GRAPH_CODES = new Set(META_ERROR_CODES.filter((e) => e.kind === "temporary").map((e) => e.code));

type WhatsAppContent = { body?: string; media_url?: string; media_type?: string };

const isWhatsAppContent = (c: Content): c is WhatsAppContent => !("html" in c);

/**
 * The Cloud API's JSON for one message, or a reason it cannot be built. D88: a message to a
 * phone posts `to`; one to a WhatsApp user id (a contact without a phone) posts `recipient`.
 */
export function cloudApiPayload(to: string, content: Content): { payload: Record<string, unknown> } | { error: string } {
  if (!isWhatsAppContent(content)) return { error: "The message is an e-mail, not a WhatsApp message." };
  const digits = to.replace(/\D/g, "");
  const byUserId = isWhatsAppUserId(to);
  if (!byUserId && (digits.length < 8 || digits.length > 15)) return { error: `${to} is not an E.164 phone number.` };
  const base = { messaging_product: "whatsapp", recipient_type: "individual", ...(byUserId ? { recipient: to } : { to: digits }) };
  if ("template" in content)
    return { payload: { ...base, type: "template", template: cloudTemplatePayload((content as TemplateContent).template) } };
  if (content.media_url) {
    const type = MEDIA_TYPES.find((t) => t === content.media_type);
    if (!type) return { error: `media_type must be one of ${MEDIA_TYPES.join(", ")}.` };
    const caption = type !== "audio" && content.body ? { caption: content.body } : {};
    return { payload: { ...base, type, [type]: { link: content.media_url, ...caption } } };
  }
  if (!content.body) return { error: "The message has neither a body nor a media_url." };
  return { payload: { ...base, type: "text", text: { body: content.body, preview_url: false } } };
}

const ZGraphError = z.object({
  error: z.looseObject({
    message: z.string().optional(),
    code: z.number().optional(),
    error_subcode: z.number().optional(),
    error_data: z.looseObject({ details: z.string().optional() }).optional(),
  }),
});

const ZGraphAccepted = z.object({ messages: z.array(z.looseObject({ id: z.string().min(1) })).min(1) });

/** Maps one Cloud API answer to the pipeline's three outcomes. */
export function mapCloudApiAnswer(answer: HttpAnswer, detail: ProviderDetail): ProviderResult {
  const json = parseJson(answer.body);
  if (answer.status >= 200 && answer.status < 300) {
    const accepted = ZGraphAccepted.safeParse(json);
    if (accepted.success) return { outcome: "accepted", providerMessageId: accepted.data.messages[0]!.id, detail };
    // Not retried: the message may have gone out, and a retry could send it twice.
    return { outcome: "permanent", error: `The Cloud API answered ${answer.status} without a message id.`, detail };
  }
  const retryAfter = retryAfterMs(answer.headers["retry-after"]);
  const graph = ZGraphError.safeParse(json);
  const code = graph.success && graph.data.error.code !== undefined ? metaErrorCodeText(graph.data.error.code) : undefined;
  const coded = code ? { errorCode: code } : {};
  const error = graph.success
    ? graphErrorText(graph.data.error)
    : `HTTP ${answer.status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ""}`;
  // D90: retried only when the Cloud API refused the request (130429, 131056, 131057), or
  // answered 429 or 503 before processing the body (no other Graph code); that is not a second
  // call (D47). Every other error is final: the request may have been acted on.
  const graphCode = graph.success ? graph.data.error.code : undefined;
  const temporary = graphCode !== undefined ? TEMPORARY_GRAPH_CODES.has(graphCode) : answer.status === 429 || answer.status === 503;
  if (temporary)
    return { outcome: "temporary", error, detail, ...coded, ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}) };
  if (answer.status >= 300 && answer.status < 400) {
    return {
      outcome: "permanent",
      error: `The Cloud API answered ${answer.status} (a redirect, not followed): check api_base_url.`,
      detail,
    };
  }
  return { outcome: "permanent", error, detail, ...coded };
}

function graphErrorText(e: z.infer<typeof ZGraphError>["error"]): string {
  const code = e.code !== undefined ? ` (code ${e.code}${e.error_subcode !== undefined ? `/${e.error_subcode}` : ""})` : "";
  const details = e.error_data?.details && e.error_data.details !== e.message ? `: ${e.error_data.details}` : "";
  return `${e.message ?? "Graph API error"}${code}${details}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const whatsappCloud: ProviderClient = {
  timeoutMs: WHATSAPP_TIMEOUT_MS,
  maxInFlight: HTTP_IN_FLIGHT_PER_CHANNEL,
  async send(channel: ChannelConfig, message: OutboundMessage): Promise<ProviderResult> {
    const built = cloudApiPayload(message.to, message.content);
    if ("error" in built) return { outcome: "permanent", error: built.error, detail: {} };
    const base = channel.settings.api_base_url ?? DEFAULT_GRAPH_API_BASE_URL;
    const url = new URL(`${base.replace(/\/+$/, "")}/${encodeURIComponent(channel.externalId)}/messages`);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let answer: HttpAnswer;
    try {
      // D54: the provider call's span (dispatch-message.ts) continues on the Cloud API's side.
      const traceparent = activeTraceparent();
      answer = await postJson(
        url,
        { authorization: `Bearer ${channel.secrets.access_token ?? ""}`, ...(traceparent ? { traceparent } : {}) },
        JSON.stringify({ ...built.payload, biz_opaque_callback_data: message.id }),
        {
          timeoutMs: WHATSAPP_TIMEOUT_MS,
          allowPrivate: env().allowPrivateWebhooks,
        },
      );
    } catch (err) {
      // D47: a request that went out unanswered may have been taken.
      return callFailure(err, {
        who: "the Cloud API",
        urlSetting: "api_base_url",
        timeoutMs: WHATSAPP_TIMEOUT_MS,
        settles: "WhatsApp reports on it",
        durationMs: elapsed(),
      });
    }
    const requestId = firstHeader(answer.headers, ["x-fb-trace-id", "x-fb-request-id", "x-request-id"]);
    return mapCloudApiAnswer(answer, {
      status_code: answer.status,
      ...(requestId ? { request_id: requestId } : {}),
      excerpt: answer.body.slice(0, 500),
      duration_ms: elapsed(),
    });
  },
};

/**
 * D91: marks an inbound message read at Meta (`"status": "read"` with its wamid), with the
 * typing indicator when asked; Meta answers `{ "success": true }`. Null when it took it, else
 * why not.
 */
export async function markReadAtMeta(channel: ChannelConfig, wamid: string, typing: boolean): Promise<string | null> {
  const base = channel.settings.api_base_url ?? DEFAULT_GRAPH_API_BASE_URL;
  const url = new URL(`${base.replace(/\/+$/, "")}/${encodeURIComponent(channel.externalId)}/messages`);
  const payload = {
    messaging_product: "whatsapp",
    status: "read",
    message_id: wamid,
    ...(typing ? { typing_indicator: { type: "text" } } : {}),
  };
  let answer: HttpAnswer;
  try {
    answer = await postJson(url, { authorization: `Bearer ${channel.secrets.access_token ?? ""}` }, JSON.stringify(payload), {
      timeoutMs: WHATSAPP_TIMEOUT_MS,
      allowPrivate: env().allowPrivateWebhooks,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return `the Cloud API could not be reached (${e.code ?? e.message})`;
  }
  const json = parseJson(answer.body) as { success?: unknown } | undefined;
  if (answer.status >= 200 && answer.status < 300 && json?.success === true) return null;
  const graph = ZGraphError.safeParse(json);
  return graph.success ? graphErrorText(graph.data.error) : `the Cloud API answered ${answer.status}`;
}
