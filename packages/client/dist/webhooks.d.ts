import type { components } from "./schema.js";
type Schemas = components["schemas"];
/** The body of a webhook delivery, one type per event name (`event` tells which); a contact's `ContactEvent` is not one. */
export type WebhookEvent = Extract<Schemas[Extract<keyof Schemas, `${string}Event`>], {
    event: string;
}>;
export type EventName = WebhookEvent["event"];
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;
export type VerifyOptions = {
    /** The endpoint's secret (`whsec_…`), or several during a rotation: any one may match. */
    secret: string | readonly string[];
    /** How far the signed timestamp may be from now, in seconds (default 300). */
    toleranceSeconds?: number;
    /** The current time, for tests. */
    now?: Date;
};
/**
 * Verifies a delivery's signature on the raw body (exactly as received, before any JSON
 * parsing) and returns the parsed event. Both schemes are accepted: Standard Webhooks
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`) when those headers are present,
 * otherwise `X-svc-Signature` (`t=<unix seconds>,v1=<hex>`). Throws WebhookVerificationError.
 */
export declare function verifyWebhook(payload: string, headers: WebhookHeaders, options: VerifyOptions): Promise<WebhookEvent>;
export {};
