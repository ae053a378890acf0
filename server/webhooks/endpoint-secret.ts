import { openSecrets, sealSecrets } from "../lib/crypto.ts";
import { randomBase62 } from "../lib/ids.ts";

/** D30: `whsec_` + 32 random base62 characters; stored sealed, shown once. */
export function generateSecret(): string {
  return `whsec_${randomBase62(32)}`;
}

export function sealSecret(secret: string): string {
  return sealSecrets({ secret });
}

const opened = new Map<string, string>();

/** The secret in a sealed row, remembered per sealed text (rows never change; rotation adds rows). */
export function openSecret(sealed: string): string {
  let secret = opened.get(sealed);
  if (secret === undefined) {
    secret = openSecrets(sealed).secret!;
    if (opened.size > 10_000) opened.clear();
    opened.set(sealed, secret);
  }
  return secret;
}

/** How long a rotated-out secret stays valid (D32). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;
