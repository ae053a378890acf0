import { AppError } from "../../lib/errors.ts";
import { OPERATOR } from "../../lib/caller.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { updateSettings, type WorkspaceSettingsUpdate } from "../../workspaces/workspace-settings.ts";
import { optionalString, requiredString, UsageError, withDatabase, type Command } from "../command.ts";

const CAP = /^(whatsapp|email)=(?:(none)|(\d+)\/(\S+))$/;

export const workspaceUpdate: Command = {
  name: "workspace update",
  summary: "Change a workspace's time zone and frequency caps",
  usage: "workspace update --workspace W [--time-zone ZONE] [--cap CHANNEL=N/DURATION|CHANNEL=none]…",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--time-zone ZONE", "IANA zone of contacts with none of their own, e.g. America/Sao_Paulo; UTC by default"],
    [
      "--cap CHANNEL=N/DURATION",
      "at most N journey messages per contact on the channel in any rolling DURATION (ISO 8601, at most 30 days), e.g. whatsapp=3/P1D; CHANNEL=none removes the cap; repeatable",
    ],
  ],
  options: { workspace: { type: "string" }, "time-zone": { type: "string" }, cap: { type: "string", multiple: true } },
  flags: { workspace: "--workspace", timeZone: "--time-zone", cap: "--cap" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const update: WorkspaceSettingsUpdate = {};
    const zone = optionalString(values, "time-zone");
    if (zone !== undefined) update.time_zone = zone;
    for (const text of (values.cap as unknown as string[] | undefined) ?? []) {
      const m = CAP.exec(text.trim());
      if (!m) throw new UsageError(`--cap must be CHANNEL=N/DURATION or CHANNEL=none, e.g. whatsapp=3/P1D (got "${text}").`);
      const channel = m[1] as "whatsapp" | "email";
      update.caps = { ...update.caps, [channel]: m[2] ? null : { count: Number(m[3]), period: m[4]! } };
    }
    const settings = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      try {
        return await updateSettings(database, workspace, update, OPERATOR);
      } catch (err) {
        // The flag, not the request's parameter path, is what the operator gave.
        if (err instanceof AppError && err.param) {
          const flag = err.param.startsWith("caps.") ? `--cap ${err.param.split(".")[1]}` : "--time-zone";
          throw new AppError(err.code, `${flag}: ${err.message.replace(/^[\w.]+: /, "")}`, { param: err.param });
        }
        throw err;
      }
    });
    const caps = Object.entries(settings.caps).map(([c, cap]) => `${c} ${cap.count}/${cap.period}`);
    return {
      json: { workspace, time_zone: settings.time_zone, caps: settings.caps }, // what the text shows, too
      text: `Workspace ${workspace}: time zone ${settings.time_zone}; caps ${caps.length ? caps.join(", ") : "none"}.`,
    };
  },
};
