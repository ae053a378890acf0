// The workspaces and keys every API test can use (seeded once per engine by seed.ts). Tests
// that consume a rate limit get a workspace of their own so they never disturb each other.
/** The dashboard user every fixture workspace has: an admin (e2e/support/dashboard.ts). */
export const FIXTURE_ADMIN = { email: "fixture-admin@example.test", password: "fixture-admin-password" };
/** A support user of `main` only (e2e/api/route-security.test.ts). */
export const FIXTURE_SUPPORT = { email: "fixture-support@example.test", password: "fixture-support-password" };
/** An admin of `other` only: a user of another workspace (e2e/api/route-security.test.ts). */
export const FIXTURE_OUTSIDER = { email: "fixture-outsider@example.test", password: "fixture-outsider-password" };

export type KeySpec = { mode: "test" | "live"; scopes?: string[]; revoked?: boolean };
export type WorkspaceSpec = {
  plan: "free" | "starter" | "pro" | "scale";
  rateLimit?: number;
  dailyLimit?: number;
  monthlyLimit?: number | null;
  defaultCountry?: string;
  keys: Record<string, KeySpec>;
};

export const FIXTURES = {
  main: {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: {
      test: { mode: "test" },
      live: { mode: "live" },
      readOnly: { mode: "test", scopes: ["messages:read"] },
      fieldsOnly: { mode: "test", scopes: ["fields:read"] },
      revoked: { mode: "test", revoked: true },
    },
  },
  other: { plan: "pro", rateLimit: 100_000, keys: { test: { mode: "test" }, live: { mode: "live" } } },
  free: { plan: "free", keys: { test: { mode: "test" }, live: { mode: "live" } } },
  limited: { plan: "starter", rateLimit: 5, keys: { a: { mode: "test" }, b: { mode: "test" } } },
  burst: { plan: "starter", rateLimit: 10, keys: { a: { mode: "test" } } },
  shared: { plan: "starter", rateLimit: 30, keys: { a: { mode: "test" } } },
  contacts: {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: { test: { mode: "test" }, live: { mode: "live" }, readOnly: { mode: "test", scopes: ["contacts:read"] } },
  },
  nocountry: { plan: "pro", rateLimit: 100_000, keys: { test: { mode: "test" } } },
  messages: {
    plan: "starter",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: { test: { mode: "test" }, live: { mode: "live" }, readOnly: { mode: "test", scopes: ["messages:read"] } },
  },
  delivery: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { live: { mode: "live" }, test: { mode: "test" } } },
  whatsapp: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { live: { mode: "live" }, test: { mode: "test" } } },
  quota: { plan: "pro", rateLimit: 100_000, dailyLimit: 10, keys: { live: { mode: "live" }, test: { mode: "test" } } },
  monthly: { plan: "pro", rateLimit: 100_000, monthlyLimit: 3, keys: { live: { mode: "live" } } },
  pages: { plan: "pro", rateLimit: 100_000, keys: { test: { mode: "test" } } },
  // Batches, scheduled sends and cancel (e2e/api/batch-send.test.ts): one workspace with room
  // for hundreds of live sends, one whose daily limit a batch reaches.
  batch: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { live: { mode: "live" }, test: { mode: "test" } } },
  batchlimit: {
    plan: "pro",
    rateLimit: 100_000,
    dailyLimit: 5,
    defaultCountry: "BR",
    keys: { live: { mode: "live" }, test: { mode: "test" } },
  },
  idem: { plan: "pro", rateLimit: 100_000, keys: { test: { mode: "test" }, live: { mode: "live" } } },
  webhooks: { plan: "pro", rateLimit: 100_000, keys: { test: { mode: "test" }, live: { mode: "live" } } },
  integrators: {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: {
      test: { mode: "test" },
      live: { mode: "live" },
      readOnly: { mode: "test", scopes: ["messages:read"] },
      sendOnly: { mode: "test", scopes: ["messages:send"] },
    },
  },
  flows: {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: { test: { mode: "test" }, live: { mode: "live" }, readOnly: { mode: "test", scopes: ["flows:read"] } },
  },
  // Contact events and the journeys that react to them (e2e/api/journeys-react.test.ts).
  reactive: {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: {
      test: { mode: "test" },
      live: { mode: "live" },
      flowsOnly: { mode: "test", scopes: ["flows:read", "flows:enroll"] },
      eventsReadOnly: { mode: "test", scopes: ["events:read"] },
    },
  },
  // The audit log and the team (e2e/api/audit.test.ts).
  audit: { plan: "pro", rateLimit: 100_000, keys: { test: { mode: "test" } } },
  // Flow send steps with WhatsApp templates and the 24-hour window (e2e/api/flow-templates.test.ts).
  flowTemplates: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { test: { mode: "test" }, live: { mode: "live" } } },
  // The OpenAPI document's examples are sent here, as written (e2e/api/openapi-examples.test.ts).
  examples: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { test: { mode: "test" } } },
  // The official TypeScript client's tests (packages/client/test/).
  client: {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: { test: { mode: "test" }, readOnly: { mode: "test", scopes: ["messages:read"] } },
  },
} satisfies Record<string, WorkspaceSpec>;

export type FixtureWorkspace = { id: string; keys: Record<string, string>; keyIds: Record<string, string> };
export type Fixtures = Record<string, FixtureWorkspace>;
