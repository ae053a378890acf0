import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { sealSecrets } from "../lib/crypto.ts";
import { normalizeEmail } from "../lib/email.ts";
import { invalid } from "../lib/errors.ts";
import { newId, randomBase62 } from "../lib/ids.ts";
import { assertAllowedHost } from "../lib/private-address.ts";
import { insertJob } from "../outbox/jobs.ts";
import { bumpTemplatesVersion } from "../whatsapp/templates-version.ts";
import { DEFAULT_GRAPH_API_BASE_URL } from "../providers/provider.ts";
import { DEFAULT_TWILIO_API_BASE_URL } from "../providers/twilio-sms.ts";
import { normalizePhone } from "../lib/phone.ts";
import {
  CHANNEL_SELECT,
  DEFAULT_RATE_PER_SECOND,
  ZConnectChannelRequest,
  type ConnectChannelRequest,
  type ConnectChannelResponse,
} from "./channel-schemas.ts";
import { channelView } from "./list-channels.ts";
import { DKIM_SECRET, DKIM_SETTINGS } from "../providers/dkim.ts";
import { dkimKey, generateDkimKey } from "./email-domain.ts";
import { log } from "../lib/log.ts";
import { syncTemplates, TEMPLATE_SYNC_EVERY_MS } from "../whatsapp/sync-templates.ts";

/**
 * Connects a WhatsApp Cloud API number or an SMTP relay to a workspace (operations.md
 * "Provider endpoints"). Secrets are sealed before they are written. Provider hosts that
 * resolve to loopback or private addresses are refused unless ALLOW_PRIVATE_WEBHOOKS=1 (the
 * rule of D34). An e-mail channel gets a bearer token for its events endpoint, returned here
 * once.
 */
export async function connectChannel(
  database: Database,
  workspaceId: string,
  input: ConnectChannelRequest,
  actor: Caller,
): Promise<ConnectChannelResponse> {
  const request = ZConnectChannelRequest.parse(input);
  const id = newId("channel");
  let data: { name: string; externalId: string; settings: Record<string, string>; secrets: Record<string, string> };
  let eventsToken: string | undefined;

  if (request.type === "whatsapp") {
    const apiBaseUrl = request.api_base_url ?? DEFAULT_GRAPH_API_BASE_URL;
    // Meta's own host needs no check (and none that depends on DNS being reachable here).
    if (apiBaseUrl !== DEFAULT_GRAPH_API_BASE_URL) await assertAllowedHost(new URL(apiBaseUrl).hostname, "api_base_url");
    data = {
      name: request.name ?? `WhatsApp ${request.phone_number_id}`,
      externalId: request.phone_number_id,
      settings: { api_base_url: apiBaseUrl, ...(request.waba_id ? { waba_id: request.waba_id } : {}) },
      secrets: { access_token: request.access_token, app_secret: request.app_secret, verify_token: request.verify_token },
    };
  } else if (request.type === "sms") {
    // D94: Twilio's Messages API; the account sid names the channel's account, the auth token signs its callbacks.
    const apiBaseUrl = request.api_base_url ?? DEFAULT_TWILIO_API_BASE_URL;
    if (apiBaseUrl !== DEFAULT_TWILIO_API_BASE_URL) await assertAllowedHost(new URL(apiBaseUrl).hostname, "api_base_url");
    const from = request.from !== undefined ? normalizePhone(request.from, null, "from") : undefined;
    data = {
      name: request.name ?? `SMS ${from ?? request.messaging_service_sid}`,
      externalId: request.account_sid,
      settings: {
        ...(from ? { from } : { messaging_service_sid: request.messaging_service_sid! }),
        ...(request.api_base_url ? { api_base_url: apiBaseUrl } : {}),
      },
      secrets: { auth_token: request.auth_token },
    };
  } else {
    const from = normalizeEmail(request.from, "from");
    const smtp = new URL(request.smtp_url);
    if (!smtp.hostname) throw invalid("parameter_invalid", "smtp_url has no host.", "smtp_url");
    await assertAllowedHost(smtp.hostname, "smtp_url");
    eventsToken = `${id}.${randomBase62(40)}`;
    // D74: a channel with a selector signs every mail; its key is given or generated, and sealed.
    if (request.dkim_private_key !== undefined && !request.dkim_selector) {
      throw invalid("parameter_missing", "A DKIM private key needs a DKIM selector.", "dkim_selector");
    }
    const dkim = request.dkim_selector
      ? request.dkim_private_key !== undefined
        ? dkimKey(request.dkim_private_key)
        : await generateDkimKey()
      : null;
    data = {
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
    };
  }

  const syncsTemplates = request.type === "whatsapp" && Boolean(request.waba_id);
  const row = await database.prisma.$transaction(async (tx) => {
    await tx.channel.create({
      data: {
        id,
        workspaceId,
        type: request.type,
        name: data.name,
        externalId: data.externalId,
        settings: data.settings,
        secrets: sealSecrets(data.secrets),
        ratePerSecond: request.rate_per_second ?? DEFAULT_RATE_PER_SECOND[request.type],
      },
      // D87: nothing of an enum column returned (Citus refuses their text cast in RETURNING).
      select: { id: true },
    });
    await bumpTemplatesVersion(prismaHandle(tx), [workspaceId]);
    const created = await tx.channel.findFirstOrThrow({ where: { workspaceId, id }, select: CHANNEL_SELECT });
    if (syncsTemplates) {
      // D41: the templates are synced every 15 minutes by the pipeline (and once just below).
      await insertJob(
        prismaHandle(tx),
        "whatsapp.templates_sync",
        {},
        { subjectId: id, workspaceId, channelId: id, runAt: new Date(Date.now() + TEMPLATE_SYNC_EVERY_MS) },
      );
    }
    // The settings name the channel (number id, sender, relay host); the secrets stay out.
    await recordAudit(prismaHandle(tx), actor, {
      workspaceId,
      action: "channel.connected",
      target: { type: "channel", id },
      detail: { type: request.type, name: data.name, external_id: data.externalId },
    });
    return created;
  });
  if (syncsTemplates) {
    // D41: synced now too. A Cloud API that cannot be reached now does not stop the
    // connection: the periodic sync tries again.
    try {
      await syncTemplates(database, id);
    } catch (err) {
      log().warn({ err, channelId: id }, "template sync on connect failed; the periodic sync tries again");
    }
    const synced = await database.prisma.channel.findFirstOrThrow({ where: { id, workspaceId }, select: CHANNEL_SELECT });
    return { channel_id: id, channel: channelView(synced) };
  }
  return { channel_id: id, channel: channelView(row), ...(eventsToken ? { events_token: eventsToken } : {}) };
}
