import { db } from "@/server/db/client.ts";
import { handleEmailEvent } from "@/server/inbound/email-callbacks.ts";
import { readRequestBody } from "@/server/lib/read-body.ts";

// The e-mail events endpoint of D39 (docs/providers.md): a relay's delivery or bounce report
// for one message, authenticated with the channel's events token.

export async function POST(req: Request): Promise<Response> {
  const raw = await readRequestBody(req, 64 * 1024);
  if (!raw) return Response.json({ error: "The body is larger than 64 KiB." }, { status: 413 });
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    body = undefined;
  }
  const outcome = await handleEmailEvent(await db(), req.headers.get("authorization"), body);
  return Response.json(outcome.body, { status: outcome.status });
}
