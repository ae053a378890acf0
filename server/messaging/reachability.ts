import type { ChannelType } from "../generated/prisma/enums.ts";
import { z } from "zod";
import { getContactOrThrow } from "../contacts/get-contact.ts";
import type { Database } from "../db/client.ts";
import type { Mode } from "../keys/scopes.ts";
import { notFound } from "../lib/errors.ts";
import { contactTimeZone, quietHold, type QuietHours } from "../lib/time-zones.ts";
import { getSettings } from "../workspaces/workspace-settings.ts";
import { capsFor, type Caps } from "./frequency-caps.ts";
import { addressOn, SKIP_REASONS, whyNot } from "./why-not.ts";
import { CHANNEL_TYPES, channelOf, perChannel, type ChannelModules } from "../channels/registry.ts";

// D71: whether a message to a contact would go out now, per channel, and why not, in D81's
// reasons. The reasons come from `whyNot`, the rule the API send and the flow engine's send
// step use, asked here for every check at once and without counting anything.

const ZReasons = z
  .array(z.enum(SKIP_REASONS))
  .describe(
    "Every reason that holds now: `no_address`, `opted_out`, `recipient_suppressed` (e-mail), `whatsapp_window_closed`, `no_channel` (live: no connected channel of the type), `quota_reached` (live: the daily or monthly limit), `frequency_capped` (journey messages only). Empty when a message would go out.",
  );

type ReachShape<K extends ChannelType> = { reachable: z.ZodBoolean; reasons: typeof ZReasons } & ChannelModules[K]["reach"]["fields"];

/** Each channel's object: whether a message would go out now, why not, and what its module adds (WhatsApp's window). */
const REACH_SHAPE = perChannel((channel) =>
  z.object({
    reachable: z.boolean().describe(`Whether ${channel.reach.what} would go out now: true when \`reasons\` is empty.`),
    reasons: ZReasons,
    ...channel.reach.fields,
  }),
) as { [K in ChannelType]: ReachShape<K> extends infer S extends z.ZodRawShape ? z.ZodObject<S> : never };

export const ZReachability = z
  .object({
    contact_id: z.string().describe("Prefix `ct_`."),
    ...REACH_SHAPE,
    quiet_hours: z
      .object({
        active: z.boolean().describe("Whether the flow's quiet hours hold now in the contact's time zone; always false without `flow_id`."),
        until: z.string().nullable().describe("When they end: a journey's send step waits until then."),
      })
      .describe("Quiet hours are a flow's setting: asked with `flow_id`, those of the flow's current version."),
    time_zone: z
      .string()
      .describe("The contact's time zone: its own, else its phone number's country's when it has one zone, else the workspace's."),
  })
  .meta({
    id: "Reachability",
    example: {
      contact_id: "ct_0mwq18yo3jJFvnIzUvqf4q",
      whatsapp: {
        reachable: false,
        reasons: ["whatsapp_window_closed"],
        window: { open: false, expires_at: "2026-11-26T18:04:00.000Z" },
        template_required: true,
      },
      email: { reachable: false, reasons: ["recipient_suppressed"] },
      sms: { reachable: true, reasons: [] },
      quiet_hours: { active: true, until: "2026-11-28T08:00:00.000Z" },
      time_zone: "America/Sao_Paulo",
    },
  });
export type Reachability = z.infer<typeof ZReachability>;

// The flow's current version's quiet hours and caps.
const FLOW_SETTINGS = `
  SELECT v.quiet_hours, v.caps FROM flows f JOIN flow_versions v ON v.workspace_id = f.workspace_id AND v.flow_id = f.id AND v.version = f.version
  WHERE f.id = $1 AND f.workspace_id = $2`;

/**
 * GET /contacts/{id}/reachability: each channel's reasons in the caller's mode (test keys see
 * test suppressions, caps counted over test messages, a simulated window; no channel or limit
 * applies to them), the window, and with `flowId` that flow's quiet hours and caps on top of
 * the workspace's. Reads only.
 */
export async function contactReachability(
  database: Database,
  caller: { workspaceId: string; mode: Mode },
  contactId: string,
  opts: { flowId?: string; now?: Date } = {},
): Promise<Reachability> {
  const now = opts.now ?? new Date();
  const [contact, settings, flow] = await Promise.all([
    getContactOrThrow(database, caller.workspaceId, contactId),
    getSettings(database, caller.workspaceId),
    opts.flowId === undefined
      ? null
      : database
          .query<{ quiet_hours: QuietHours | null; caps: Caps | null }>(FLOW_SETTINGS, [opts.flowId, caller.workspaceId])
          .then(([row]) => row ?? Promise.reject(notFound("flow", "flow_id"))),
  ]);
  const reasons = async (channel: ChannelType) => {
    const caps = capsFor(channel, settings.caps, flow?.caps);
    const refusals = await whyNot(
      database.query,
      { workspaceId: caller.workspaceId, mode: caller.mode, channel, contact },
      { all: true, window: true, channel: true, quota: true, caps: { caps }, now },
    );
    return refusals.map((r) => r.reason);
  };
  const channels = await Promise.all(
    CHANNEL_TYPES.map(async (type) => {
      const why = await reasons(type);
      const added = channelOf(type).reach.of?.(caller.mode, contact, addressOn(contact, type), now);
      return [type, { reachable: why.length === 0, reasons: why, ...added }] as const;
    }),
  );
  const zone = contactTimeZone(contact, settings.time_zone);
  const held = flow?.quiet_hours ? quietHold(flow.quiet_hours, zone, now) : null;
  return {
    contact_id: contact.id,
    ...(Object.fromEntries(channels) as Pick<Reachability, ChannelType>),
    quiet_hours: { active: held !== null, until: held?.until.toISOString() ?? null },
    time_zone: zone,
  };
}
