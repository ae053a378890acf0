import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { hashPassword, verifyPassword } from "../lib/crypto.ts";
import { recordSignInFailure, signInDelayMs } from "./sign-in-throttle.ts";

// Dashboard sign-in: e-mail and password checked against the scrypt hash of the user, slowed
// after failures (sign-in-throttle.ts, D51).

const ZCredentials = z.object({
  email: z.string().trim().toLowerCase().min(3).max(320),
  password: z.string().min(1).max(200),
});

export type SignedInUser = { id: string; email: string; name: string | null };

/** A hash of nothing in particular, so an attempt that checks no user costs the same scrypt run. */
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= hashPassword("decoy password, never matches"));

/**
 * The user for these credentials, or null when the e-mail is unknown or the password wrong:
 * the caller cannot tell which, by answer or by timing (every attempt runs one password hash).
 * Every attempt is checked, after the wait its failures so far impose (D51).
 */
export async function verifyCredentials(database: Database, input: unknown, clientAddress: string): Promise<SignedInUser | null> {
  const parsed = ZCredentials.safeParse(input);
  if (!parsed.success) {
    await verifyPassword("", await decoy());
    return null;
  }
  const { email, password } = parsed.data;
  const delayMs = await signInDelayMs(database, email, clientAddress);
  if (delayMs > 0) await sleep(delayMs);
  const user = await database.prisma.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
  const matches = await verifyPassword(password, user?.passwordHash ?? (await decoy()));
  if (user && matches) return { id: user.id, email: user.email, name: user.name };
  await recordSignInFailure(database, email, clientAddress);
  return null;
}
