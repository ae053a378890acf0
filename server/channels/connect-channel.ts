import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { sealSecrets } from "../lib/crypto.ts";
import { newId, randomBase62 } from "../lib/ids.ts";
import { assertAllowedHost } from "../lib/private-address.ts";
import { insertJob } from "../outbox/jobs.ts";
import { bumpTemplatesVersion } from "../whatsapp/templates-version.ts";
import {
  CHANNEL_SELECT,
  DEFAULT_RATE_PER_SECOND,
  ZConnectChannelRequest,
  type ConnectChannelRequest,
  type ConnectChannelResponse,
} from "./channel-schemas.ts";
import { channelView } from "./list-channels.ts";
import { channelOf } from "./registry.ts";
import { dkimKey, generateDkimKey } from "./email/domain.ts";
import { log } from "../lib/log.ts";
import { syncTemplates, TEMPLATE_SYNC_EVERY_MS } from "../whatsapp/sync-templates.ts";

/**
 * Connects a provider account to a workspace as a channel of its type (operations.md
 * "Provider endpoints"), its row made by the type's module. Secrets are sealed before they are written. Provider hosts that
 * resolve to loopback or private addresses are refused unless ALLOW_PRIVATE_WEBHOOKS=1 (the
 * rule of D34). A token the module made for the provider's reports (e-mail's events token) is
 * returned here once.
 */
export async function connectChannel(
  database: Database,
  workspaceId: string,
  input: ConnectChannelRequest,
  actor: Caller,
): Promise<ConnectChannelResponse> {
  const request = ZConnectChannelRequest.parse(input);
  const id = newId("channel");
  // D34's host rule, randomness and keys, passed in: the module stays free of Node's modules.
  const data = await channelOf(request.type).connect.prepare(request, {
    id,
    assertAllowedHost,
    randomToken: () => randomBase62(40),
    dkimKey: async (pem) => (pem !== undefined ? dkimKey(pem) : generateDkimKey()),
  });
  const { eventsToken, syncsTemplates } = data;
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
