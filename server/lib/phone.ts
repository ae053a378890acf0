import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
import { invalid } from "./errors.ts";

// D1: E.164 in storage and responses; input may carry spaces, dashes, dots and parentheses; a
// number without a country code is read with the workspace's default country.

/** The fictional 555-01xx numbers of D35 pass validation with any key. */
const FICTIONAL = /^\+1555010\d{4}$/;
const ALLOWED = /^\+?[\d\s\-.()]+$/;

export function normalizePhone(input: string, defaultCountry: string | null, param: string): string {
  const raw = input.trim();
  if (!ALLOWED.test(raw)) throw invalidPhone(param, "may only hold digits, spaces, dashes, dots, parentheses and a leading +");
  const compact = raw.replace(/[\s\-.()]/g, "");
  if (FICTIONAL.test(compact)) return compact;
  if (!compact.startsWith("+") && !defaultCountry) {
    throw invalidPhone(param, "has no country code and the workspace has no default country; write it as +<country code><number>");
  }
  const parsed = parsePhoneNumberFromString(compact, (defaultCountry ?? undefined) as CountryCode | undefined);
  if (!parsed || !parsed.isValid()) throw invalidPhone(param, "is not a valid phone number");
  return parsed.number;
}

function invalidPhone(param: string, why: string) {
  return invalid("invalid_phone", `${param} ${why}.`, param);
}
