import { z } from "zod";
import type { Database } from "../db/client.ts";
import { consumeBucket } from "../keys/authenticate-key.ts";
import { hashPassword, verifyPassword } from "../lib/crypto.ts";

/** Sign-in attempts per e-mail address per rolling minute (docs/api-platform.md). */
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;

// Dashboard sign-in: e-mail and password checked against the scrypt hash of the user.

const ZCredentials = z.object({
  email: z.string().trim().toLowerCase().min(3).max(320),
  password: z.string().min(1).max(200),
});

export type SignedInUser = { id: string; email: string; name: string | null };

/** A hash of nothing in particular, so an unknown e-mail costs the same scrypt run. */
let decoyHash: Promise<string> | undefined;

/**
 * The user for these credentials, or null when the e-mail is unknown or the password wrong
 * (the caller cannot tell which, by answer or by timing).
 */
export async function verifyCredentials(database: Database, input: unknown): Promise<SignedInUser | null> {
  const parsed = ZCredentials.safeParse(input);
  if (!parsed.success) return null;
  const { email, password } = parsed.data;
  // Password guessing is bounded per address; past the limit every attempt fails, right or not.
  if (!(await consumeBucket(database, `sign-in:${email}`, SIGN_IN_ATTEMPTS_PER_MINUTE)).allowed) return null;
  const user = await database.prisma.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
  if (!user) {
    decoyHash ??= hashPassword("decoy password, never matches");
    await verifyPassword(password, await decoyHash);
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  return { id: user.id, email: user.email, name: user.name };
}
