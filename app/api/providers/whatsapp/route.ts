import { db } from "@/server/db/client.ts";
import { log } from "@/server/lib/log.ts";
import { readRequestBody } from "@/server/lib/read-body.ts";
import { handleWhatsAppWebhook, verifyHandshake } from "@/server/inbound/whatsapp-webhook.ts";

// The WhatsApp Cloud API's webhook (operations.md "Provider endpoints"): GET is Meta's
// subscription handshake, POST carries status reports and inbound messages signed with the
// app secret. The logic is in server/inbound/whatsapp-webhook.ts.

const MAX_BODY = 1024 * 1024;

export async function GET(req: Request): Promise<Response> {
  const challenge = await verifyHandshake(await db(), new URL(req.url).searchParams);
  const headers = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };
  return challenge === null ? new Response("Forbidden", { status: 403, headers }) : new Response(challenge, { status: 200, headers });
}

export async function POST(req: Request): Promise<Response> {
  const raw = await readRequestBody(req, MAX_BODY);
  if (!raw) return Response.json({ error: "The body is larger than 1 MiB." }, { status: 413 });
  const outcome = await handleWhatsAppWebhook(await db(), raw, req.headers.get("x-hub-signature-256"));
  if (outcome.status === 200) log().debug({ summary: outcome.summary }, "whatsapp webhook");
  else log().info({ status: outcome.status }, "whatsapp webhook refused");
  return Response.json(outcome.body, { status: outcome.status });
}
