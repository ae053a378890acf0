import type { Plan } from "../generated/prisma/enums.ts";

// Plan defaults of operations.md; each limit can be overridden per workspace.
export const PLANS: Record<Plan, { apiAccess: boolean; monthlyLimit: number | null; dailyLimit: number; rateLimit: number }> = {
  free: { apiAccess: false, monthlyLimit: 1_000, dailyLimit: 100, rateLimit: 120 },
  starter: { apiAccess: true, monthlyLimit: 10_000, dailyLimit: 1_000, rateLimit: 120 },
  pro: { apiAccess: true, monthlyLimit: 100_000, dailyLimit: 10_000, rateLimit: 120 },
  scale: { apiAccess: true, monthlyLimit: null, dailyLimit: 100_000, rateLimit: 120 },
};

export const PLAN_NAMES = Object.keys(PLANS) as Plan[];

export type LimitOverrides = {
  plan: Plan;
  rateLimit: number | null;
  dailyLimit: number | null;
  monthlyLimit: number | null;
  monthlyLimitSet: boolean;
};

export type Limits = { apiAccess: boolean; rateLimit: number; dailyLimit: number; monthlyLimit: number | null };

export function effectiveLimits(ws: LimitOverrides): Limits {
  const plan = PLANS[ws.plan];
  return {
    apiAccess: plan.apiAccess,
    rateLimit: ws.rateLimit ?? plan.rateLimit,
    dailyLimit: ws.dailyLimit ?? plan.dailyLimit,
    monthlyLimit: ws.monthlyLimitSet ? ws.monthlyLimit : plan.monthlyLimit,
  };
}
