import { db } from "@/server/db/client.ts";
import { handleTwilioCallback } from "@/server/inbound/sms-callbacks.ts";
import { readRequestBody } from "@/server/lib/read-body.ts";

// Twilio's status callbacks and inbound messages for one SMS channel (D95, D96), form-encoded
// and signed with X-Twilio-Signature. The logic is in server/inbound/sms-callbacks.ts.

const MAX_BODY = 64 * 1024;

const EMPTY_TWIML = `<?xml version="1.0" encoding="UTF-8"?><Response></Response>`;

export async function POST(req: Request, ctx: { params: Promise<{ channel_id: string }> }): Promise<Response> {
  const raw = await readRequestBody(req, MAX_BODY);
  if (!raw) return Response.json({ error: "The body is larger than 64 KiB." }, { status: 413 });
  const { channel_id } = await ctx.params;
  const url = new URL(req.url);
  const outcome = await handleTwilioCallback(
    await db(),
    channel_id,
    { path: `${url.pathname}${url.search}`, host: req.headers.get("host") },
    raw.toString("utf8"),
    req.headers.get("x-twilio-signature"),
  );
  if (outcome.status !== 200) return Response.json(outcome.body, { status: outcome.status });
  // Twilio reads the answer to an inbound message as TwiML: an empty <Response> sends no reply.
  return new Response(EMPTY_TWIML, { status: 200, headers: { "content-type": "text/xml; charset=utf-8" } });
}
