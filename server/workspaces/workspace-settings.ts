import { z } from "zod";
import { recordAudit } from "../audit/record-audit.ts";
import type { Database, Handle } from "../db/client.ts";
import type { Caller } from "../lib/caller.ts";
import { fromZodError, notFound } from "../lib/errors.ts";
import { ZTimeZone } from "../lib/time-zones.ts";
import { ZCap, ZCaps, type Caps } from "../messaging/frequency-caps.ts";

// A workspace's journey settings: its time zone (D65) and frequency caps (D67), changed by
// `svc workspace update` and the dashboard's settings page, read by the run engine and
// reachability.

export type WorkspaceSettings = { time_zone: string; caps: Caps };

export const ZWorkspaceSettingsUpdate = z.strictObject({
  time_zone: ZTimeZone.optional(),
  /** Per channel: a cap, or null to remove it; channels not given keep theirs. */
  caps: z.strictObject({ whatsapp: ZCap.nullable().optional(), email: ZCap.nullable().optional() }).optional(),
});
export type WorkspaceSettingsUpdate = z.input<typeof ZWorkspaceSettingsUpdate>;

/** The settings of these workspaces, by id, in one statement (through `sql`, so inside a transaction too). */
export async function readSettings(sql: Handle, workspaceIds: string[]): Promise<Map<string, WorkspaceSettings>> {
  const rows = await sql<{ id: string; time_zone: string; caps: Caps }>(
    `SELECT id, time_zone, caps FROM workspaces WHERE id = ANY($1::text[])`,
    [workspaceIds],
  );
  return new Map(rows.map((r) => [r.id, { time_zone: r.time_zone, caps: r.caps ?? {} }]));
}

export async function getSettings(database: Database, workspaceId: string): Promise<WorkspaceSettings> {
  const settings = (await readSettings(database.query, [workspaceId])).get(workspaceId);
  if (!settings) throw notFound("workspace", "workspace");
  return settings;
}

/** Changes the zone and caps given (a D29 error names the faulty one), audited; the settings as they now are. */
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
    const [row] = await sql<{ time_zone: string; caps: Caps }>(`SELECT time_zone, caps FROM workspaces WHERE id = $1 FOR UPDATE`, [
      workspaceId,
    ]);
    if (!row) throw notFound("workspace", "workspace");
    const caps: Caps = { ...(row.caps ?? {}) };
    for (const channel of ["whatsapp", "email"] as const) {
      const cap = update.caps?.[channel];
      if (cap === null) delete caps[channel];
      else if (cap) caps[channel] = cap;
    }
    const after = { time_zone: update.time_zone ?? row.time_zone, caps: ZCaps.parse(caps) };
    await sql(`UPDATE workspaces SET time_zone = $2, caps = $3::jsonb WHERE id = $1`, [
      workspaceId,
      after.time_zone,
      JSON.stringify(after.caps),
    ]);
    await recordAudit(sql, actor, {
      workspaceId,
      action: "workspace.updated",
      target: { type: "workspace", id: workspaceId },
      detail: { time_zone: after.time_zone, caps: after.caps },
    });
    return after;
  });
}
