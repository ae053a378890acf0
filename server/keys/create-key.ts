import { z } from "zod";
import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { sha256Hex } from "../lib/crypto.ts";
import { newId, randomBase62 } from "../lib/ids.ts";
import { ALL_SCOPES, hasAllScopes, MODES, SCOPES } from "./scopes.ts";

export const ZCreateKeyRequest = z.object({
  name: z.string().trim().min(1).max(100).default("API key"),
  mode: z.enum(MODES),
  // Absent, or `["*"]`: all scopes, including those added later (stored as the marker).
  scopes: z
    .array(z.enum([...SCOPES, ALL_SCOPES]))
    .min(1)
    .default([ALL_SCOPES]),
});

export type CreateKeyRequest = z.input<typeof ZCreateKeyRequest>;

/** Key material of D21: `svc_<mode>_` + 40 random base62 characters. Only the hash is kept. */
export function generateKey(mode: "test" | "live") {
  const prefix = `svc_${mode}_`;
  const key = prefix + randomBase62(40);
  return { key, prefix, hash: sha256Hex(key), lastFour: key.slice(-4) };
}

export async function createKey(database: Database, workspaceId: string, request: CreateKeyRequest, actor: Caller) {
  const input = ZCreateKeyRequest.parse(request);
  const material = generateKey(input.mode);
  const scopes = hasAllScopes(input.scopes) ? [ALL_SCOPES] : [...new Set(input.scopes)];
  const id = newId("key");
  await database.prisma.$transaction(async (tx) => {
    await tx.apiKey.create({
      data: {
        id,
        workspaceId,
        name: input.name,
        mode: input.mode,
        hash: material.hash,
        prefix: material.prefix,
        lastFour: material.lastFour,
        scopes,
      },
      select: { id: true },
    });
    await recordAudit(prismaHandle(tx), actor, {
      workspaceId,
      action: "api_key.created",
      target: { type: "api_key", id },
      detail: { name: input.name, mode: input.mode, scopes },
    });
  });
  return { id, key: material.key };
}
