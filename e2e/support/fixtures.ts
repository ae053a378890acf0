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

/** The integrators' workspaces (contact erase, tag edits, the client, webhook endpoints): keys of each kind. */
const INTEGRATORS = {
  plan: "pro",
  rateLimit: 100_000,
  defaultCountry: "BR",
  keys: {
    test: { mode: "test" },
    live: { mode: "live" },
    readOnly: { mode: "test", scopes: ["messages:read"] },
    sendOnly: { mode: "test", scopes: ["messages:send"] },
  },
} satisfies WorkspaceSpec;

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
  // What WhatsApp messages cost (e2e/api/whatsapp-pricing.test.ts, D89): usage of its own.
  pricing: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { live: { mode: "live" }, test: { mode: "test" } } },
  // WhatsApp user ids (e2e/api/whatsapp-user-ids.test.ts): a channel of its own.
  whatsappIds: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { live: { mode: "live" }, test: { mode: "test" } } },
  // WhatsApp refusals and paused channels (e2e/api/whatsapp-refusals.test.ts, D90), and the
  // e-mail reputation guard (e2e/api/reputation-guard.test.ts, D93): channels of their own.
  refusals: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { live: { mode: "live" }, test: { mode: "test" } } },
  guard: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { live: { mode: "live" }, test: { mode: "test" } } },
  // SMS through Twilio (e2e/api/sms.test.ts, D94-D97): a channel and usage of its own.
  sms: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { live: { mode: "live" }, test: { mode: "test" } } },
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
  // Suppressions, bounces and complaints (e2e/api/suppressions.test.ts, D72, D73).
  suppressions: {
    plan: "pro",
    rateLimit: 100_000,
    keys: { test: { mode: "test" }, live: { mode: "live" }, readOnly: { mode: "live", scopes: ["contacts:read"] } },
  },
  // The SMTP listener (e2e/api/bounces.test.ts, D73): a workspace with a bounce domain, and another.
  bounces: { plan: "pro", rateLimit: 100_000, keys: { live: { mode: "live" } } },
  bouncesOther: { plan: "pro", rateLimit: 100_000, keys: { live: { mode: "live" } } },
  // DKIM and the domain's records (e2e/api/email-dkim.test.ts, D74): a signing channel, and another workspace.
  dkim: { plan: "pro", rateLimit: 100_000, keys: { live: { mode: "live" } } },
  dkimOther: { plan: "pro", rateLimit: 100_000, keys: { live: { mode: "live" } } },
  // Amazon SES notifications through SNS (e2e/api/ses-notifications.test.ts, D73 path 2).
  ses: { plan: "pro", rateLimit: 100_000, keys: { live: { mode: "live" } } },
  idem: { plan: "pro", rateLimit: 100_000, keys: { test: { mode: "test" }, live: { mode: "live" } } },
  webhooks: { plan: "pro", rateLimit: 100_000, keys: { test: { mode: "test" }, live: { mode: "live" } } },
  integrators: INTEGRATORS,
  flows: {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: { test: { mode: "test" }, live: { mode: "live" }, readOnly: { mode: "test", scopes: ["flows:read"] } },
  },
  // Webhook endpoints by API and `svc listen` (e2e/api/webhook-endpoints.test.ts, D77): the
  // integrators' keys in a workspace of its own, so its endpoints and the stream hear only its
  // own messages' events.
  webhookEndpoints: INTEGRATORS,
  // The event stream and `svc listen` after a burst (e2e/api/event-stream.test.ts, issue 46): a
  // workspace of its own, so that its thousands of events reach no other file's listener; the
  // key `stream` opens only the slow reader's stream, so its open streams can be counted.
  eventStream: { ...INTEGRATORS, keys: { ...INTEGRATORS.keys, stream: { mode: "test", scopes: ["webhooks:read"] } } },
  // The bound of 50 endpoints and their pages (e2e/api/webhook-endpoints.test.ts, D99): a
  // workspace of its own, filled to the bound.
  endpointLimit: { plan: "pro", rateLimit: 100_000, keys: { test: { mode: "test" } } },
  // Step ids, statistics, preview and move (e2e/api/flow-edits.test.ts): a workspace of its own,
  // so its check that a preview writes nothing sees no other file's rows.
  flowEdits: {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: { test: { mode: "test" }, live: { mode: "live" }, readOnly: { mode: "test", scopes: ["flows:read"] } },
  },
  // Flow documents saved, read and saved again unchanged (e2e/api/flow-documents.test.ts, issue 46).
  flowDocs: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { test: { mode: "test" } } },
  // The client README's journeys-as-code example (packages/client/test/journeys.test.ts): its own
  // workspace, so the flows it pulls and pushes by name are only its own.
  journeysCode: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { test: { mode: "test" } } },
  // Flows over REST, the contact list, tag and field deletes (e2e/api/flows-api.test.ts, D98, D99):
  // a workspace of its own, so its lists and in-use checks see no other file's flows or contacts.
  flowsApi: {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: { test: { mode: "test" }, readOnly: { mode: "test", scopes: ["flows:read", "contacts:read"] } },
  },
  // Reachability and dry runs (e2e/api/reachability.test.ts, D71): a workspace of its own, so its
  // check that a dry run writes nothing sees no other file's rows; one live message a day per
  // channel, so a scheduled send reaches the limit and its cancel gives it back.
  reach: {
    plan: "pro",
    rateLimit: 100_000,
    dailyLimit: 1,
    defaultCountry: "BR",
    keys: { test: { mode: "test" }, live: { mode: "live" }, readOnly: { mode: "live", scopes: ["contacts:read"] } },
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
  // Quiet hours, frequency caps, splits and reachability (e2e/api/journeys-trust.test.ts).
  trust: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { test: { mode: "test" }, live: { mode: "live" } } },
  // The OpenAPI document's examples are sent here, as written (e2e/api/openapi-examples.test.ts).
  examples: { plan: "pro", rateLimit: 100_000, defaultCountry: "BR", keys: { test: { mode: "test" } } },
  // The /docs quickstart, pasted block by block into an empty workspace (e2e/api/docs-quickstart.test.ts).
  quickstart: { plan: "pro", rateLimit: 100_000, keys: { test: { mode: "test" } } },
  // The dashboard's test/live switch (e2e/api/dashboard-mode.test.ts): counts of one mode, in a workspace of its own.
  modes: { plan: "pro", rateLimit: 100_000, keys: { test: { mode: "test" } } },
  // Read receipts and sender readiness (e2e/api/sender-readiness.test.ts, D91, D92).
  ready: {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: {
      test: { mode: "test" },
      live: { mode: "live" },
      readOnly: { mode: "live", scopes: ["messages:read"] },
      channelsOnly: { mode: "live", scopes: ["channels:read"] },
    },
  },
  // The official TypeScript client's tests (packages/client/test/).
  client: {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: { test: { mode: "test" }, readOnly: { mode: "test", scopes: ["messages:read"] } },
  },
  // The Citus files' own (e2e/citus/): each picks one per worker by where its id hashes, so each
  // has ten (all ten on one worker: 2 in 1,024). Other files' workspaces are in use beside them:
  // a channel another file connects would take their sends.
  ...shardWorkspaces("layout"),
  ...shardWorkspaces("shards"),
} satisfies Record<string, WorkspaceSpec>;

/** `<prefix>0` … `<prefix>9`: live and test keys, no limits that a test could reach. */
function shardWorkspaces(prefix: ShardPrefix): Record<string, WorkspaceSpec> {
  const spec: WorkspaceSpec = {
    plan: "pro",
    rateLimit: 100_000,
    defaultCountry: "BR",
    keys: { test: { mode: "test" }, live: { mode: "live" } },
  };
  return Object.fromEntries(shardNames(prefix).map((name) => [name, spec]));
}

type ShardPrefix = "layout" | "shards";

/** The names `shardWorkspaces(prefix)` seeds (a declaration: FIXTURES, above, calls it as it loads). */
export function shardNames(prefix: ShardPrefix): string[] {
  return Array.from({ length: 10 }, (_, i) => `${prefix}${i}`);
}

export type FixtureWorkspace = { id: string; keys: Record<string, string>; keyIds: Record<string, string> };
export type Fixtures = Record<string, FixtureWorkspace>;
