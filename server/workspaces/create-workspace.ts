import { getCountries, type CountryCode } from "libphonenumber-js";
import { z } from "zod";
import type { Caller } from "../lib/caller.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { prismaHandle } from "../db/prisma-handle.ts";
import type { Database } from "../db/client.ts";
import { invalid } from "../lib/errors.ts";
import { randomBase62 } from "../lib/ids.ts";
import { PLAN_NAMES } from "./plans.ts";

export const ZCreateWorkspaceRequest = z.object({
  name: z.string().trim().min(1).max(100),
  plan: z.enum(PLAN_NAMES).default("starter"),
  rateLimit: z.number().int().min(1).nullable().default(null),
  dailyLimit: z.number().int().min(0).nullable().default(null),
  /** undefined: the plan's; null: no monthly limit; a number: that limit. */
  monthlyLimit: z.number().int().min(0).nullable().optional(),
  defaultCountry: z
    .string()
    .toUpperCase()
    .refine((c) => getCountries().includes(c as CountryCode), "must be an ISO 3166 alpha-2 country code")
    .nullable()
    .default(null),
});

export type CreateWorkspaceRequest = z.input<typeof ZCreateWorkspaceRequest>;

/** The workspace identifier: a slug of the name plus a random suffix, e.g. `acme-k3j9x2`. */
export function workspaceIdentifier(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 32);
  return `${slug || "ws"}-${randomBase62(6).toLowerCase()}`;
}

export async function createWorkspace(database: Database, request: CreateWorkspaceRequest, actor: Caller): Promise<{ id: string }> {
  const parsed = ZCreateWorkspaceRequest.safeParse(request);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid("invalid_workspace", `${issue?.path.join(".")}: ${issue?.message}`, String(issue?.path[0] ?? ""));
  }
  const input = parsed.data;
  const settings = {
    name: input.name,
    plan: input.plan,
    rateLimit: input.rateLimit,
    dailyLimit: input.dailyLimit,
    monthlyLimit: input.monthlyLimit ?? null,
    monthlyLimitSet: input.monthlyLimit !== undefined,
    defaultCountry: input.defaultCountry,
  };
  return database.prisma.$transaction(async (tx) => {
    const workspace = await tx.workspace.create({ data: { id: workspaceIdentifier(input.name), ...settings }, select: { id: true } });
    await recordAudit(prismaHandle(tx), actor, {
      workspaceId: workspace.id,
      action: "workspace.created",
      target: { type: "workspace", id: workspace.id },
      detail: {
        name: input.name,
        plan: input.plan,
        rate_limit: input.rateLimit,
        daily_limit: input.dailyLimit,
        monthly_limit: settings.monthlyLimit,
        default_country: input.defaultCountry,
      },
    });
    return workspace;
  });
}

export async function getWorkspaceOrThrow(database: Database, id: string) {
  const ws = await database.prisma.workspace.findUnique({ where: { id } });
  if (!ws) throw invalid("workspace_not_found", `No workspace with identifier ${id}.`, "workspace");
  return ws;
}
