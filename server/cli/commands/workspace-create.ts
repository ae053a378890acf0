import { createWorkspace } from "../../workspaces/create-workspace.ts";
import { PLAN_NAMES, PLANS } from "../../workspaces/plans.ts";
import { oneOf, optionalString, requiredString, wholeNumber, withDatabase, type Command } from "../command.ts";
import { OPERATOR } from "../../lib/caller.ts";

const limit = (n: number | null) => (n === null ? "none" : n.toLocaleString("en-US"));

export const workspaceCreate: Command = {
  name: "workspace create",
  summary: "Create a workspace",
  usage:
    "workspace create --name NAME [--plan free|starter|pro|scale] [--rate-limit N] [--daily-limit N] [--monthly-limit N|none] [--default-country CC]",
  help: [
    ["--name NAME", "the workspace name (1 to 100 characters)"],
    [
      "--plan PLAN",
      `starter by default. ${PLAN_NAMES.map((p) => `${p}: ${PLANS[p].apiAccess ? "API" : "no API"}, monthly ${limit(PLANS[p].monthlyLimit)}, daily ${limit(PLANS[p].dailyLimit)} per channel`).join("; ")}`,
    ],
    ["--rate-limit N", "requests per rolling 60 seconds per key (the plan's 120 by default)"],
    ["--daily-limit N", "live messages per channel per UTC day (overrides the plan's)"],
    ["--monthly-limit N|none", "live messages per calendar month; none means no limit (overrides the plan's)"],
    ["--default-country CC", "ISO 3166 alpha-2 country for phone numbers given without a country code"],
  ],
  options: {
    name: { type: "string" },
    plan: { type: "string" },
    "rate-limit": { type: "string" },
    "daily-limit": { type: "string" },
    "monthly-limit": { type: "string" },
    "default-country": { type: "string" },
  },
  flags: {
    name: "--name",
    plan: "--plan",
    rateLimit: "--rate-limit",
    dailyLimit: "--daily-limit",
    monthlyLimit: "--monthly-limit",
    defaultCountry: "--default-country",
  },
  async run(values) {
    const name = requiredString(values, "name");
    const plan = oneOf(values, "plan", PLAN_NAMES) ?? "starter";
    const monthly = optionalString(values, "monthly-limit");
    const request = {
      name,
      plan,
      rateLimit: wholeNumber(values, "rate-limit", 1) ?? null,
      dailyLimit: wholeNumber(values, "daily-limit", 0) ?? null,
      monthlyLimit: monthly?.trim().toLowerCase() === "none" ? null : wholeNumber(values, "monthly-limit", 0),
      defaultCountry: optionalString(values, "default-country") ?? null,
    };
    const { id } = await withDatabase((database) => createWorkspace(database, request, OPERATOR));
    return { json: { workspace: id }, text: `Created workspace ${id} (plan ${plan}).` };
  },
};
