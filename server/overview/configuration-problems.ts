import type { Database } from "../db/client.ts";
import { openSecrets, SecretsUnreadableError } from "../lib/crypto.ts";
import { UNREADABLE_CHANNEL } from "../messaging/dispatch-message.ts";
import { UNREADABLE_ENDPOINT } from "../webhooks/deliver-webhook.ts";

// What the operator must fix before a workspace's messages or webhooks can go out, shown as a
// banner on every dashboard page of the workspace (D53): stored credentials that this
// server's secret cannot open (a restored backup, a CLI run with another AUTH_SECRET). Each
// such message or delivery fails with the same explanation (`fix`); the banner says it once,
// before anyone has to find a failed message. Bounded: a workspace's connected channels and
// enabled endpoints, at most LIMIT of each, read by their workspace index.

const LIMIT = 100;

export type ConfigurationProblem = {
  kind: "channel" | "webhook";
  id: string;
  /** The channel's name, or the endpoint's URL. */
  label: string;
  /** What is wrong and how to fix it: the error its messages or deliveries fail with. */
  fix: string;
};

function unreadable(sealed: string): boolean {
  try {
    openSecrets(sealed);
    return false;
  } catch (err) {
    if (err instanceof SecretsUnreadableError) return true;
    throw err;
  }
}

export async function configurationProblems(database: Database, workspaceId: string): Promise<ConfigurationProblem[]> {
  const [channels, endpoints] = await Promise.all([
    database.prisma.channel.findMany({
      where: { workspaceId, disconnectedAt: null },
      select: { id: true, name: true, secrets: true },
      orderBy: { createdAt: "asc" },
      take: LIMIT,
    }),
    database.prisma.webhookEndpoint.findMany({
      where: { workspaceId, enabled: true },
      select: { id: true, url: true, secrets: { select: { secret: true }, where: { expiresAt: null }, take: 1 } },
      orderBy: { createdAt: "asc" },
      take: LIMIT,
    }),
  ]);
  const problems: ConfigurationProblem[] = [];
  for (const c of channels) {
    if (unreadable(c.secrets))
      problems.push({
        kind: "channel",
        id: c.id,
        label: c.name,
        fix: UNREADABLE_CHANNEL,
      });
  }
  for (const e of endpoints) {
    const current = e.secrets[0];
    if (current && unreadable(current.secret))
      problems.push({
        kind: "webhook",
        id: e.id,
        label: e.url,
        fix: UNREADABLE_ENDPOINT,
      });
  }
  return problems;
}
