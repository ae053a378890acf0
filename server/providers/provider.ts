import type { ChannelType } from "../generated/prisma/enums.ts";
import type { TemplateContent } from "./whatsapp-template.ts";

// One small interface per provider (ARCHITECTURE "Shape"): the pipeline hands a message to the
// client of its channel's type and gets one of four answers back.

/** The Graph API base a WhatsApp channel calls unless it names another (`api_base_url`). */
export const DEFAULT_GRAPH_API_BASE_URL = "https://graph.facebook.com/v21.0";

/** The kinds of media a WhatsApp message carries (`media_type`). */
export const MEDIA_TYPES = ["image", "video", "audio", "document"] as const;

/** A message's content as stored and sent: WhatsApp free-form or an sms (`body`), a WhatsApp template, or an e-mail. */
export type Content =
  | { body?: string; media_url?: string; media_type?: string }
  | TemplateContent
  | { subject: string; html: string; reply_to?: string; preview_text?: string };

export type ChannelConfig = {
  id: string;
  workspaceId: string;
  type: ChannelType;
  /** WhatsApp: phone number id; e-mail: from address; sms: the Twilio account sid. */
  externalId: string;
  /** Non-secret settings, e.g. api_base_url, tracking_base_url. */
  settings: Record<string, string>;
  /** Decrypted secrets, e.g. access_token, app_secret, verify_token, smtp_url. */
  secrets: Record<string, string>;
  ratePerSecond: number;
  /** D90, D93: why the channel is paused (`payment`, `policy`, `complaint_rate`, `bounce_rate`), or null. */
  pausedReason?: string | null;
};

export type OutboundMessage = {
  id: string;
  workspaceId: string;
  contactId: string;
  /** E.164 phone (WhatsApp, sms) or e-mail address. */
  to: string;
  content: Content;
  /** The flow whose run sent it; absent or null for API sends and test sends. */
  flowId?: string | null;
};

/** Every answer carries what the history keeps: provider request id and a reply excerpt. */
export type ProviderDetail = { request_id?: string; status_code?: number; excerpt?: string; duration_ms?: number };

export type ProviderResult =
  | { outcome: "accepted"; providerMessageId: string; detail: ProviderDetail }
  /** Will never succeed (invalid number, 4xx other than rate limits, SMTP 5xx): `failed`. */
  | {
      outcome: "permanent";
      error: string;
      detail: ProviderDetail;
      errorCode?: string;
      /** D73: the recipient's address itself was refused for good (an SMTP 5xx to it): it is suppressed. */
      addressRejected?: boolean;
    }
  /** May succeed later (rate limit, 5xx, SMTP 4xx, a connection refused before the request was sent): retried. */
  | { outcome: "temporary"; error: string; detail: ProviderDetail; retryAfterMs?: number; errorCode?: string }
  /**
   * The request was sent and no answer came (a timeout, a connection closed before the answer):
   * the provider may have taken the message. Never retried, since that would be a second call
   * (D47); the provider's own report settles it, or the message fails as `provider_timeout`.
   */
  | { outcome: "unknown"; error: string; detail: ProviderDetail };

/**
 * An HTTP provider's sends in flight per channel and worker: a burst of 200 at the start of a
 * second (a channel paced at 200/s and more) goes out at once, and a provider that stops
 * answering holds a third of the worker's slots (WORKER_SLOTS) at most.
 */
export const HTTP_IN_FLIGHT_PER_CHANNEL = 200;

export interface ProviderClient {
  /** How long one send may take at most (its timeouts): the pipeline's lease covers it before the call starts (D47). */
  readonly timeoutMs: number;
  /**
   * How many of one channel's sends a pipeline worker runs at once; the rest wait in the worker
   * for a slot (`keyedSlots`), so one channel whose provider is slow, or that sends over a few
   * connections, holds at most this many of the worker's slots and every other channel and
   * workspace keeps the rest (D49).
   */
  readonly maxInFlight: number;
  send(channel: ChannelConfig, message: OutboundMessage): Promise<ProviderResult>;
}
