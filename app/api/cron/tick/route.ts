import { timingSafeEqual } from "node:crypto";
import { db } from "@/server/db/client.ts";
import { env } from "@/server/lib/env.ts";
import { runPipeline } from "@/server/pipeline/run-pipeline.ts";

// POST /api/cron/tick: one pass of the delivery pipeline for external schedulers (a
// Kubernetes CronJob, system cron), guarded by `Authorization: Bearer <CRON_SECRET>`. With no
// CRON_SECRET configured the route refuses every call (operations.md).

export const dynamic = "force-dynamic";

function authorized(header: string | null): boolean {
  const secret = env().cronSecret;
  if (!secret || !header?.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice(7));
  const expected = Buffer.from(secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function POST(req: Request): Promise<Response> {
  if (!authorized(req.headers.get("authorization"))) {
    return Response.json({ error: { type: "authentication", message: "A valid CRON_SECRET bearer token is required." } }, { status: 401 });
  }
  const counts = await runPipeline(await db(), { budgetMs: 20_000 });
  return Response.json(counts);
}
