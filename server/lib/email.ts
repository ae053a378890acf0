import { z } from "zod";
import { invalid } from "./errors.ts";

const ZMailbox = z.email();

/** D2: trimmed, the domain lower-cased, and one syntactically valid mailbox. */
export function normalizeEmail(input: string, param: string): string {
  const trimmed = input.trim();
  const at = trimmed.lastIndexOf("@");
  const normalized = at > 0 ? `${trimmed.slice(0, at)}@${trimmed.slice(at + 1).toLowerCase()}` : trimmed;
  if (normalized.length > 254 || !ZMailbox.safeParse(normalized).success) {
    throw invalid("invalid_email", `${param} is not a valid e-mail address.`, param);
  }
  return normalized;
}
