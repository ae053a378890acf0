import type { z } from "zod";
import { normalizeEmail } from "../../lib/email.ts";
import { invalid } from "../../lib/errors.ts";
import { DKIM_SECRET, DKIM_SETTINGS } from "../../providers/dkim.ts";
import type { Channel, ConnectedRow, ConnectKit } from "../channel.ts";
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

/** `svc channel connect --type email`. */
export const emailCli: Channel["connect"]["cli"] = {
  usage:
    "--smtp-url URL --from ADDRESS [--tracking-base-url URL] [--bounce-domain DOMAIN] [--dkim-selector S [--dkim-private-key-file PATH]]",
  options: [
    {
      flag: "smtp-url",
      arg: "URL",
      param: "smtp_url",
      help: "smtp:// or smtps://, with optional user:password@, e.g. smtps://user:pass@smtp.example.com:465",
    },
    { flag: "from", arg: "ADDRESS", param: "from", help: "the sender address" },
    {
      flag: "tracking-base-url",
      arg: "URL",
      param: "tracking_base_url",
      help: "origin of the tracking image and unsubscribe links (APP_URL by default)",
    },
    {
      flag: "bounce-domain",
      arg: "DOMAIN",
      param: "bounce_domain",
      help: "return path bounces+<message id>@DOMAIN; point its MX at the service's SMTP listener",
    },
    {
      flag: "dkim-selector",
      arg: "S",
      param: "dkim_selector",
      help: "sign every mail with DKIM under selector S (a 2048-bit RSA key is generated); see svc channel dns",
    },
    {
      flag: "dkim-private-key-file",
      arg: "PATH",
      param: "dkim_private_key",
      help: "with --dkim-selector, sign with this PEM RSA private key instead",
    },
  ],
  request(values) {
    const keyFile = values.optional("dkim-private-key-file");
    if (keyFile !== undefined && values.optional("dkim-selector") === undefined)
      values.fail("--dkim-private-key-file needs --dkim-selector.");
    return {
      smtp_url: values.required("smtp-url"),
      from: values.required("from"),
      tracking_base_url: values.optional("tracking-base-url"),
      bounce_domain: values.optional("bounce-domain"),
      dkim_selector: values.optional("dkim-selector"),
      dkim_private_key: keyFile === undefined ? undefined : values.file("dkim-private-key-file"),
    };
  },
  connected(channel) {
    const json = {
      channel_id: channel.channelId,
      events_token: channel.eventsToken,
      events_url: channel.callbackUrl,
      ses_notifications_url: `${channel.appUrl}/api/providers/email/ses/${channel.channelId}`,
    };
    const text = [
      `Connected e-mail channel ${channel.channelId} (from ${channel.externalId}) to workspace ${channel.workspace}.`,
      "",
      "Events token (shown only now; your relay posts delivery and bounce reports with it):",
      "",
      `  ${channel.eventsToken}`,
      "",
      `  POST ${json.events_url}`,
      "  Authorization: Bearer <events token>",
      "",
      `Amazon SES: subscribe ${json.ses_notifications_url} (https) to the SNS topic of its notifications.`,
      ...(channel.settings.dkim_selector
        ? ["", `Mail is signed with DKIM (selector ${channel.settings.dkim_selector}): svc channel dns lists the records to publish.`]
        : []),
    ];
    return { json, text };
  },
};
