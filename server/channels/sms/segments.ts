// D97: how many SMS segments a rendered body costs, and in which encoding it goes out.
// GSM-7 when every character is in GSM 03.38's basic table or its extension table (an
// extension character is sent as ESC plus itself, so it counts two); otherwise UCS-2, counted
// in UTF-16 code units (a character outside the Basic Multilingual Plane, such as most emoji,
// is a surrogate pair and counts two). One segment holds 160 GSM-7 or 70 UCS-2 units; a longer
// body is split into parts that lose room to the concatenation header: 153 or 67 units each.

export type SmsEncoding = "GSM-7" | "UCS-2";

export type SmsSegments = {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the body takes. */
  units: number;
  segments: number;
};

/** GSM 03.38's basic table, in code order (0x1B, the escape to the extension table, left out). */
const GSM_BASIC = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" + "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);

/** GSM 03.38's default extension table: each is sent as ESC followed by its code. */
const GSM_EXTENSION = new Set("\f^{}\\[~]|€");

/** D94: at most 1,600 characters (UTF-16) after rendering, as Twilio takes them. */
export const SMS_BODY_MAX = 1600;

/** Units in a single segment, and in each part of a longer body. */
export const SEGMENT_UNITS: Record<SmsEncoding, { single: number; part: number }> = {
  "GSM-7": { single: 160, part: 153 },
  "UCS-2": { single: 70, part: 67 },
};

const inGsm7 = (c: string) => GSM_BASIC.has(c) || GSM_EXTENSION.has(c);

export function smsSegments(body: string): SmsSegments {
  const encoding: SmsEncoding = [...body].every(inGsm7) ? "GSM-7" : "UCS-2";
  const units = encoding === "GSM-7" ? [...body].reduce((n, c) => n + (GSM_EXTENSION.has(c) ? 2 : 1), 0) : body.length;
  const { single, part } = SEGMENT_UNITS[encoding];
  return { encoding, units, segments: units <= single ? 1 : Math.ceil(units / part) };
}

/** The distinct characters of `body` outside GSM 03.38, which make it go as UCS-2 (what the editor names). */
export function nonGsm7Characters(body: string): string[] {
  return [...new Set([...body].filter((c) => !inGsm7(c)))];
}
