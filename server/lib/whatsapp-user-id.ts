import { invalid } from "./errors.ts";

// D88: Meta's business-scoped user id: a two-letter country code, a dot, then up to 128
// letters and digits (`US.13491208655302741918`). Stored as given.
const WHATSAPP_USER_ID = /^[A-Za-z]{2}\.[A-Za-z0-9]{1,128}$/;

export function isWhatsAppUserId(value: string): boolean {
  return WHATSAPP_USER_ID.test(value);
}

export function checkWhatsAppUserId(input: string, param: string): string {
  const value = input.trim();
  if (!isWhatsAppUserId(value)) {
    throw invalid(
      "invalid_whatsapp_user_id",
      `${param} is not a WhatsApp user id: two letters, a dot, then up to 128 letters and digits, such as US.13491208655302741918.`,
      param,
    );
  }
  return value;
}
