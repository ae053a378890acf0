import { db } from "@/server/db/client.ts";
import { log } from "@/server/lib/log.ts";
import { recordEmailOpen } from "@/server/inbound/email-callbacks.ts";

// The open-tracking image of every e-mail (D39): fetching it makes the message `read`. The
// answer is always the same 1×1 transparent GIF, for a bad token too, and is never cached so
// each open reaches us.

const GIF = Uint8Array.from(Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64"));

export async function GET(req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  try {
    const userAgent = req.headers.get("user-agent");
    await recordEmailOpen(await db(), token, userAgent ? { user_agent: userAgent.slice(0, 200) } : {});
  } catch (err) {
    log().error({ err }, "e-mail open tracking failed");
  }
  return new Response(GIF, {
    status: 200,
    headers: {
      "content-type": "image/gif",
      "content-length": String(GIF.byteLength),
      "cache-control": "no-store, no-cache, must-revalidate, max-age=0",
      pragma: "no-cache",
      expires: "0",
    },
  });
}
