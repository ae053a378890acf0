import { AppError } from "../../lib/errors.ts";
import { OPERATOR } from "../../lib/caller.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { updateSettings, type WorkspaceSettingsUpdate } from "../../workspaces/workspace-settings.ts";
import { optionalString, requiredString, UsageError, withDatabase, type Command } from "../command.ts";
import { parseGuard, readGuard, setGuard, type Guard } from "../../channels/reputation.ts";

const CAP = /^(whatsapp|email)=(?:(none)|(\d+)\/(\S+))$/;
// D89: a Meta pricing category and what one charged message of it costs.
const PRICE = /^([a-z][a-z0-9_]{0,99})=(\d{1,9}(?:\.\d{1,6})?)$/;

export const workspaceUpdate: Command = {
  name: "workspace update",
  summary: "Change a workspace's time zone, frequency caps and WhatsApp prices",
  usage:
    "workspace update --workspace W [--time-zone ZONE] [--cap CHANNEL=N/DURATION|CHANNEL=none]… [--whatsapp-price CATEGORY=AMOUNT]… [--currency CODE] [--guard complaints=R,bounces=R]",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--time-zone ZONE", "IANA zone of contacts with none of their own, e.g. America/Sao_Paulo; UTC by default"],
    [
      "--cap CHANNEL=N/DURATION",
      "at most N journey messages per contact on the channel in any rolling DURATION (ISO 8601, at most 30 days), e.g. whatsapp=3/P1D; CHANNEL=none removes the cap; repeatable",
    ],
    [
      "--whatsapp-price CATEGORY=AMOUNT",
      "what one charged WhatsApp message of Meta's pricing CATEGORY costs, e.g. marketing=0.0625; other categories keep theirs; repeatable",
    ],
    ["--currency CODE", "the ISO 4217 currency of the prices, e.g. USD; needed with the first prices"],
    [
      "--guard complaints=R,bounces=R",
      "the reputation guard's thresholds for e-mail channels, rates over the last 7 days (0.003 and 0.04 by default): past one, journey e-mails on the channel are paused",
    ],
  ],
  options: {
    workspace: { type: "string" },
    "time-zone": { type: "string" },
    cap: { type: "string", multiple: true },
    "whatsapp-price": { type: "string", multiple: true },
    currency: { type: "string" },
    guard: { type: "string" },
  },
  flags: {
    workspace: "--workspace",
    timeZone: "--time-zone",
    cap: "--cap",
    whatsapp_prices: "--whatsapp-price",
    currency: "--currency",
    guard: "--guard",
  },
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
    for (const text of (values["whatsapp-price"] as unknown as string[] | undefined) ?? []) {
      const m = PRICE.exec(text.trim());
      if (!m) {
        throw new UsageError(
          `--whatsapp-price must be CATEGORY=AMOUNT, a pricing category in lower case and an amount of at most 6 decimals, e.g. marketing=0.0625 (got "${text}").`,
        );
      }
      update.whatsapp_prices = { ...update.whatsapp_prices, [m[1]!]: m[2]! };
    }
    const currency = optionalString(values, "currency");
    if (currency !== undefined) {
      if (!/^[A-Za-z]{3}$/.test(currency.trim()))
        throw new UsageError(`--currency must be an ISO 4217 code such as USD (got "${currency}").`);
      update.currency = currency.trim().toUpperCase();
    }
    // D93: the reputation guard's thresholds.
    const guardText = optionalString(values, "guard");
    let guardUpdate: Partial<Guard> | undefined;
    if (guardText !== undefined) {
      try {
        guardUpdate = parseGuard(guardText);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    }
    let guard: Guard | undefined;
    const settings = await withDatabase(async (database) => {
      const ws = await getWorkspaceOrThrow(database, workspace);
      if (update.whatsapp_prices && !update.currency && !ws.currency) {
        throw new UsageError("--currency is needed with the first --whatsapp-price, e.g. --currency USD.");
      }
      try {
        const updated = await updateSettings(database, workspace, update, OPERATOR);
        // Written once every other flag was accepted, so a refused command writes nothing.
        guard = guardUpdate ? await setGuard(database.query, workspace, guardUpdate) : await readGuard(database.query, workspace);
        return updated;
      } catch (err) {
        // The flag, not the request's parameter path, is what the operator gave.
        if (err instanceof AppError && err.param) {
          const [param, key] = err.param.split(".");
          const flag =
            param === "caps"
              ? `--cap ${key}`
              : param === "whatsapp_prices"
                ? `--whatsapp-price ${key}`
                : param === "currency"
                  ? "--currency"
                  : "--time-zone";
          throw new AppError(err.code, `${flag}: ${err.message.replace(/^[\w.]+: /, "")}`, { param: err.param });
        }
        throw err;
      }
    });
    const caps = Object.entries(settings.caps).map(([c, cap]) => `${c} ${cap.count}/${cap.period}`);
    const prices = Object.entries(settings.whatsapp_prices).map(([c, amount]) => `${c} ${amount}`);
    return {
      // What the text shows, too.
      json: {
        workspace,
        time_zone: settings.time_zone,
        caps: settings.caps,
        whatsapp_prices: settings.whatsapp_prices,
        currency: settings.currency,
        guard,
      },
      text:
        `Workspace ${workspace}: time zone ${settings.time_zone}; caps ${caps.length ? caps.join(", ") : "none"}; ` +
        `WhatsApp prices ${prices.length ? `${prices.join(", ")} ${settings.currency}` : "none"}; ` +
        `reputation guard complaints ${guard!.complaints}, bounces ${guard!.bounces}.`,
    };
  },
};
