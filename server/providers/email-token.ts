import { createHmac } from "node:crypto";
import { deriveKey, safeEqual } from "../lib/crypto.ts";
import { env } from "../lib/env.ts";

// The token in an e-mail's tracking image and unsubscribe URLs: the message id and an
// HMAC-SHA256 of it (128 bits, base64url) under a key derived from AUTH_SECRET for this use
// only, so ids can be neither guessed into a valid link nor forged. Tokens do not expire: an
// unsubscribe link must keep working for as long as the e-mail is kept.

const ID = /^msg_[0-9A-Za-z]{1,64}$/;

function mac(messageId: string, secret: string): string {
  return createHmac("sha256", deriveKey(secret, "svc/email-token/v1")).update(messageId).digest().subarray(0, 16).toString("base64url");
}

export function signToken(messageId: string, secret: string = env().authSecret): string {
  return `${messageId}.${mac(messageId, secret)}`;
}

/** The message id of a valid token; null for anything else. */
export function verifyToken(token: string, secret: string = env().authSecret): string | null {
  const dot = token.indexOf(".");
  if (dot < 0 || token.length > 200) return null;
  const messageId = token.slice(0, dot);
  if (!ID.test(messageId)) return null;
  return safeEqual(token.slice(dot + 1), mac(messageId, secret)) ? messageId : null;
}
