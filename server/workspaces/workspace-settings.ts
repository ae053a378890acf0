import { z } from "zod";
import { recordAudit } from "../audit/record-audit.ts";
import type { Database, Handle } from "../db/client.ts";
import type { Caller } from "../lib/caller.ts";
import { fromZodError, invalid, notFound } from "../lib/errors.ts";
import { ZTimeZone } from "../lib/time-zones.ts";
import { ZCap, ZCaps, type Caps } from "../messaging/frequency-caps.ts";
import { perChannel } from "../channels/registry.ts";
import { CHANNELS } from "../messaging/message-schemas.ts";
import { ZCurrency, ZPriceAmount, ZPricingCategory, type WhatsAppPrices } from "../usage/whatsapp-cost.ts";

// A workspace's settings: its time zone (D65) and frequency caps (D67), read by the run engine
// and reachability, and its WhatsApp prices and their currency (D89), read by usage and flow
// statistics; changed by `svc workspace update` and the dashboard's settings page.

export type WorkspaceSettings = { time_zone: string; caps: Caps; whatsapp_prices: WhatsAppPrices; currency: string | null };

export const ZWorkspaceSettingsUpdate = z.strictObject({
  time_zone: ZTimeZone.optional(),
  /** Per channel: a cap, or null to remove it; channels not given keep theirs. */
  caps: z.strictObject(perChannel(() => ZCap.nullable().optional())).optional(),
  /** Per Meta pricing category, what one charged message costs; categories not given keep theirs. */
  whatsapp_prices: z.record(ZPricingCategory, ZPriceAmount).optional(),
  currency: ZCurrency.optional(),
});
export type WorkspaceSettingsUpdate = z.input<typeof ZWorkspaceSettingsUpdate>;

/** The columns of a workspace's settings, as `settingsOf` reads them (a part of other statements' reads too). */
export const SETTINGS_COLUMNS = "time_zone, caps, whatsapp_prices, currency";

/** The settings of a row of `SETTINGS_COLUMNS`. */
export const settingsOf = (r: WorkspaceSettings): WorkspaceSettings => ({
  time_zone: r.time_zone,
  caps: r.caps ?? {},
  whatsapp_prices: r.whatsapp_prices ?? {},
  currency: r.currency,
});

/** The settings of these workspaces, by id, in one statement (through `sql`, so inside a transaction too). */
export async function readSettings(sql: Handle, workspaceIds: string[]): Promise<Map<string, WorkspaceSettings>> {
  const rows = await sql<{ id: string } & WorkspaceSettings>(`SELECT id, ${SETTINGS_COLUMNS} FROM workspaces WHERE id = ANY($1::text[])`, [
    workspaceIds,
  ]);
  return new Map(rows.map((r) => [r.id, settingsOf(r)]));
}

export async function getSettings(database: Database, workspaceId: string): Promise<WorkspaceSettings> {
  const settings = (await readSettings(database.query, [workspaceId])).get(workspaceId);
  if (!settings) throw notFound("workspace", "workspace");
  return settings;
}

/**
 * Changes the zone, caps, prices and currency given (a D29 error names the faulty one; prices
 * need a currency, given or kept), audited; the settings as they now are.
 */
export async function updateSettings(
  database: Database,
  workspaceId: string,
  input: WorkspaceSettingsUpdate,
  actor: Caller,
): Promise<WorkspaceSettings> {
  const parsed = ZWorkspaceSettingsUpdate.safeParse(input);
  if (!parsed.success) throw fromZodError(parsed.error)!;
  const update = parsed.data;
  return database.transaction(async (sql) => {
    const [row] = await sql<WorkspaceSettings>(
      `SELECT time_zone, caps, whatsapp_prices, currency FROM workspaces WHERE id = $1 FOR UPDATE`,
      [workspaceId],
    );
    if (!row) throw notFound("workspace", "workspace");
    const caps: Caps = { ...(row.caps ?? {}) };
    for (const channel of CHANNELS) {
      const cap = update.caps?.[channel];
      if (cap === null) delete caps[channel];
      else if (cap) caps[channel] = cap;
    }
    const after: WorkspaceSettings = {
      time_zone: update.time_zone ?? row.time_zone,
      caps: ZCaps.parse(caps),
      whatsapp_prices: { ...(row.whatsapp_prices ?? {}), ...update.whatsapp_prices },
      currency: update.currency ?? row.currency,
    };
    if (Object.keys(after.whatsapp_prices).length > 0 && !after.currency) {
      throw invalid("parameter_missing", "currency: the prices need a currency, such as USD.", "currency");
    }
    await sql(`UPDATE workspaces SET time_zone = $2, caps = $3::jsonb, whatsapp_prices = $4::jsonb, currency = $5 WHERE id = $1`, [
      workspaceId,
      after.time_zone,
      JSON.stringify(after.caps),
      JSON.stringify(after.whatsapp_prices),
      after.currency,
    ]);
    await recordAudit(sql, actor, {
      workspaceId,
      action: "workspace.updated",
      target: { type: "workspace", id: workspaceId },
      detail: after,
    });
    return after;
  });
}
