import { WebhookVerificationError } from "./errors.js";
/**
 * Verifies a delivery's signature on the raw body (exactly as received, before any JSON
 * parsing) and returns the parsed event. Both schemes are accepted: Standard Webhooks
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`) when those headers are present,
 * otherwise `X-svc-Signature` (`t=<unix seconds>,v1=<hex>`). Throws WebhookVerificationError.
 */
export async function verifyWebhook(payload, headers, options) {
    const header = headerReader(headers);
    const secrets = typeof options.secret === "string" ? [options.secret] : [...options.secret];
    if (secrets.length === 0)
        throw new WebhookVerificationError("No secret given.");
    const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
    const tolerance = options.toleranceSeconds ?? 300;
    const standard = header("webhook-signature");
    let verified;
    let timestamp;
    if (standard !== undefined) {
        const id = header("webhook-id");
        timestamp = Number(header("webhook-timestamp"));
        if (!id || !Number.isInteger(timestamp))
            throw new WebhookVerificationError("Missing webhook-id or webhook-timestamp.");
        const given = standard
            .split(" ")
            .filter((entry) => entry.startsWith("v1,"))
            .map((entry) => entry.slice(3));
        const expected = await Promise.all(secrets.map(async (s) => base64(await hmac(base64Decode(s.replace(/^whsec_/, "")), `${id}.${timestamp}.${payload}`))));
        verified = expected.some((e) => given.some((g) => constantTimeEqual(e, g)));
    }
    else {
        const svc = header("x-svc-signature");
        if (svc === undefined)
            throw new WebhookVerificationError("No signature header (webhook-signature or X-svc-Signature).");
        const parts = svc.split(",").map((p) => p.split("=", 2));
        timestamp = Number(parts.find(([k]) => k === "t")?.[1]);
        if (!Number.isInteger(timestamp))
            throw new WebhookVerificationError("X-svc-Signature has no timestamp.");
        const given = parts.filter(([k]) => k === "v1").map(([, v]) => v ?? "");
        const expected = await Promise.all(secrets.map(async (s) => hex(await hmac(new TextEncoder().encode(s), `${timestamp}.${payload}`))));
        verified = expected.some((e) => given.some((g) => constantTimeEqual(e, g)));
    }
    if (!verified)
        throw new WebhookVerificationError("No signature matches the secret.");
    if (Math.abs(now - timestamp) > tolerance)
        throw new WebhookVerificationError("The signed timestamp is outside the tolerance.");
    return JSON.parse(payload);
}
function headerReader(headers) {
    if (typeof headers.get === "function")
        return (name) => headers.get(name) ?? undefined;
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(",") : v]));
    return (name) => lower[name];
}
async function hmac(key, data) {
    const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, new TextEncoder().encode(data)));
}
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const base64 = (bytes) => btoa(String.fromCharCode(...bytes));
function base64Decode(text) {
    const binary = atob(text);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
function constantTimeEqual(a, b) {
    if (a.length !== b.length)
        return false;
    let diff = 0;
    for (let i = 0; i < a.length; i++)
        diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
    return diff === 0;
}
