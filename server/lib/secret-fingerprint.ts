import type { Database } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import { deriveKey } from "./crypto.ts";
import { env } from "./env.ts";

/**
 * D53: every process of one installation must use the secret that sealed the stored channel
 * and webhook credentials. The first process to start records a fingerprint of it (a derived
 * key, which does not reveal the secret); any later process with another secret refuses to
 * start, instead of leaving messages queued that it could never send.
 */
export class SecretMismatchError extends Error {
  constructor(dataDir: string) {
    super(
      "This database was set up with another secret (AUTH_SECRET, or the auth-secret file in DATA_DIR), " +
        "so the stored channel and webhook credentials cannot be opened. Start with the same AUTH_SECRET as the " +
        `other processes of this installation, or with the DATA_DIR holding its auth-secret file (this one: ${dataDir}).`,
    );
    this.name = "SecretMismatchError";
  }
}

export function secretFingerprint(secret: string): string {
  return deriveKey(secret, "svc/secret-fingerprint/v1").toString("hex").slice(0, 32);
}

export async function checkSecret(database: Database): Promise<void> {
  const { authSecret, dataDir } = env();
  const mine = secretFingerprint(authSecret);
  const [row] = await database.query<Columns<"service_settings", "value">>(
    `WITH ins AS (
       INSERT INTO service_settings (name, value) VALUES ('secret_fingerprint', $1) ON CONFLICT (name) DO NOTHING RETURNING value
     )
     SELECT value FROM ins UNION ALL SELECT value FROM service_settings WHERE name = 'secret_fingerprint'`,
    [mine],
  );
  if (row && row.value !== mine) throw new SecretMismatchError(dataDir);
}
