import { z } from "zod";
import { env } from "../lib/env.ts";
import { callFailure, firstHeader, postJson, retryAfterMs, type HttpAnswer } from "./http-post.ts";
import { DEFAULT_TWILIO_API_BASE_URL, SMS_CALLBACK_PATH } from "./twilio-callback.ts";
import {
  HTTP_IN_FLIGHT_PER_CHANNEL,
  type ChannelConfig,
  type OutboundMessage,
  type ProviderClient,
  type ProviderDetail,
  type ProviderResult,
} from "./provider.ts";

// Twilio's Messages API (D94, operations.md "Provider endpoints"): a form-encoded
// POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json with HTTP Basic auth
// (account sid : auth token), one message per call. The answer's `sid` becomes the provider
// message id; Twilio then posts the message's statuses to `StatusCallback`.

export const TWILIO_TIMEOUT_MS = 15_000;

export type TwilioAccount = {
  accountSid: string;
  authToken: string;
  /** Who sends: a phone number of the account (E.164) or a Messaging Service (D94). */
  sender: { from: string } | { messagingServiceSid: string };
  /** `https://api.twilio.com` unless another base is named. */
  apiBaseUrl?: string;
};

export type TwilioSms = {
  /** E.164. */
  to: string;
  body: string;
  /** Where Twilio posts the message's statuses (the channel's callback URL, D95). */
  statusCallback: string;
};

/** The form Twilio's Messages API takes for one sms. */
export function twilioMessageForm(account: TwilioAccount, sms: TwilioSms): URLSearchParams {
  const sender: [string, string] =
    "from" in account.sender ? ["From", account.sender.from] : ["MessagingServiceSid", account.sender.messagingServiceSid];
  return new URLSearchParams([["To", sms.to], sender, ["Body", sms.body], ["StatusCallback", sms.statusCallback]]);
}

/** Twilio's error answer: `{ code, message, more_info, status }`. */
const ZTwilioError = z.looseObject({ code: z.number(), message: z.string().optional() });

const ZTwilioMessage = z.looseObject({ sid: z.string().min(1) });

/**
 * Maps one Messages API answer to the pipeline's outcomes. D95: an error answer fails the
 * message at once with `sms_<code>`; only HTTP 429 and 503 are retried, as Twilio created no
 * message then (D47: not a second call). Any other refusal is final.
 */
export function mapTwilioAnswer(answer: HttpAnswer, detail: ProviderDetail): ProviderResult {
  const json = parseJson(answer.body);
  if (answer.status >= 200 && answer.status < 300) {
    const created = ZTwilioMessage.safeParse(json);
    if (created.success) return { outcome: "accepted", providerMessageId: created.data.sid, detail };
    // Not retried: the message may have been created, and a retry could send it twice.
    return { outcome: "permanent", error: `Twilio answered ${answer.status} without a message sid.`, detail };
  }
  const twilio = ZTwilioError.safeParse(json);
  const coded = twilio.success ? { errorCode: `sms_${twilio.data.code}` } : {};
  const error = twilio.success
    ? `${twilio.data.message ?? "Twilio error"} (code ${twilio.data.code})`
    : `HTTP ${answer.status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ""}`;
  if (answer.status === 429 || answer.status === 503) {
    const retryAfter = retryAfterMs(answer.headers["retry-after"]);
    return { outcome: "temporary", error, detail, ...coded, ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}) };
  }
  if (answer.status >= 300 && answer.status < 400) {
    return { outcome: "permanent", error: `Twilio answered ${answer.status} (a redirect, not followed): check the API base URL.`, detail };
  }
  return { outcome: "permanent", error, detail, ...coded };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sends one sms through the account; the sid when Twilio took it. */
export async function sendTwilioSms(account: TwilioAccount, sms: TwilioSms): Promise<ProviderResult> {
  const base = (account.apiBaseUrl ?? DEFAULT_TWILIO_API_BASE_URL).replace(/\/+$/, "");
  const url = new URL(`${base}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}/Messages.json`);
  const basic = Buffer.from(`${account.accountSid}:${account.authToken}`).toString("base64");
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let answer: HttpAnswer;
  try {
    answer = await postJson(url, { authorization: `Basic ${basic}` }, twilioMessageForm(account, sms).toString(), {
      timeoutMs: TWILIO_TIMEOUT_MS,
      allowPrivate: env().allowPrivateWebhooks,
      contentType: "application/x-www-form-urlencoded",
    });
  } catch (err) {
    // D47: a request that went out unanswered may have created the message.
    return callFailure(err, {
      who: "Twilio",
      urlSetting: "API base URL",
      timeoutMs: TWILIO_TIMEOUT_MS,
      settles: "its status callback arrives",
      durationMs: elapsed(),
    });
  }
  const requestId = firstHeader(answer.headers, ["twilio-request-id", "x-request-id"]);
  return mapTwilioAnswer(answer, {
    status_code: answer.status,
    ...(requestId ? { request_id: requestId } : {}),
    excerpt: answer.body.slice(0, 500),
    duration_ms: elapsed(),
  });
}

/** A channel's Twilio account, as `connectChannel` stored it (external id: the account sid). */
export function twilioAccount(channel: ChannelConfig): TwilioAccount {
  const { from, messaging_service_sid: service, api_base_url: apiBaseUrl } = channel.settings;
  return {
    accountSid: channel.externalId,
    authToken: channel.secrets.auth_token ?? "",
    sender: service ? { messagingServiceSid: service } : { from: from ?? "" },
    ...(apiBaseUrl ? { apiBaseUrl } : {}),
  };
}

/** The pipeline's client of sms channels: one Messages API call per message, its statuses posted to the channel's callback URL. */
export const twilioSmsClient: ProviderClient = {
  timeoutMs: TWILIO_TIMEOUT_MS,
  maxInFlight: HTTP_IN_FLIGHT_PER_CHANNEL,
  send(channel: ChannelConfig, message: OutboundMessage) {
    const body = "body" in message.content && typeof message.content.body === "string" ? message.content.body : "";
    // Our message id rides along (as WhatsApp's biz_opaque_callback_data does): a report finds
    // its message even when the send's answer, and so the sid, was lost or is not recorded yet (D47).
    const statusCallback = `${env().appUrl}${SMS_CALLBACK_PATH}/${channel.id}?message_id=${encodeURIComponent(message.id)}`;
    return sendTwilioSms(twilioAccount(channel), { to: message.to, body, statusCallback });
  },
};
