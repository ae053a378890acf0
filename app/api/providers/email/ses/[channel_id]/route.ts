import { db } from "@/server/db/client.ts";
import { handleSesNotification } from "@/server/inbound/ses-notifications.ts";
import { readRequestBody } from "@/server/lib/read-body.ts";

// Amazon SES notifications through SNS for one e-mail channel (D73 path 2, D85). SNS posts its
// JSON as text/plain; a message is at most 256 KiB.

export async function POST(req: Request, ctx: { params: Promise<{ channel_id: string }> }): Promise<Response> {
  const raw = await readRequestBody(req, 300 * 1024);
  if (!raw) return Response.json({ error: "The body is larger than an SNS message can be." }, { status: 413 });
  const { channel_id } = await ctx.params;
  const outcome = await handleSesNotification(await db(), channel_id, raw.toString("utf8"));
  return Response.json(outcome.body, { status: outcome.status });
}
