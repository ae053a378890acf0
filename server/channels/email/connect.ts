import type { z } from "zod";
import { normalizeEmail } from "../../lib/email.ts";
import { invalid } from "../../lib/errors.ts";
import { DKIM_SECRET, DKIM_SETTINGS } from "../../providers/dkim.ts";
import type { ConnectedRow, ConnectKit } from "../channel.ts";
import type { ZConnectEmailRequest } from "./contract.ts";

/** An SMTP relay's row: its sender, relay and tracking settings, its events token (answered once) and DKIM key. */
export async function prepareEmail(request: z.output<typeof ZConnectEmailRequest>, kit: ConnectKit): Promise<ConnectedRow> {
  const from = normalizeEmail(request.from, "from");
  const smtp = new URL(request.smtp_url);
  if (!smtp.hostname) throw invalid("parameter_invalid", "smtp_url has no host.", "smtp_url");
  await kit.assertAllowedHost(smtp.hostname, "smtp_url");
  const eventsToken = `${kit.id}.${kit.randomToken()}`;
  // D74: a channel with a selector signs every mail; its key is given or generated, and sealed.
  if (request.dkim_private_key !== undefined && !request.dkim_selector) {
    throw invalid("parameter_missing", "A DKIM private key needs a DKIM selector.", "dkim_selector");
  }
  const dkim = request.dkim_selector ? await kit.dkimKey(request.dkim_private_key) : null;
  return {
    name: request.name ?? `E-mail ${from}`,
    externalId: from,
    settings: {
      from,
      smtp_server: `${smtp.protocol}//${smtp.host}`,
      ...(request.tracking_base_url ? { tracking_base_url: request.tracking_base_url } : {}),
      ...(request.bounce_domain ? { bounce_domain: request.bounce_domain } : {}),
      ...(dkim && request.dkim_selector
        ? { [DKIM_SETTINGS.selector]: request.dkim_selector, [DKIM_SETTINGS.publicKey]: dkim.publicKey }
        : {}),
    },
    secrets: {
      smtp_url: request.smtp_url,
      events_token: eventsToken,
      ...(dkim ? { [DKIM_SECRET]: dkim.privateKeyPem } : {}),
    },
    eventsToken,
  };
}
