import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The file that starves the machine on purpose (three CPU hogs beside three instances, for
 * about two minutes): it runs after every other file, alone, so that the tests that time
 * something (a scheduled send's second, D76; a slow party's, D49) never run on a CPU it starved.
 */
const STARVES_THE_CPU = "e2e/api/starved-cpu.test.ts";

// Unit tests beside the code; API integration tests run twice, once per engine, each against
// a real server process (e2e/support/global-setup.ts).
const api = (engine: "postgres" | "pglite") => ({
  test: {
    name: `api-${engine}`,
    include: ["e2e/api/**/*.test.ts", "packages/client/test/**/*.test.ts"],
    exclude: ["e2e/api/openapi.test.ts", "e2e/api/openapi-clients.test.ts", STARVES_THE_CPU],
    // Three files at once can run ten servers on the shared PostgreSQL (max_connections 100):
    // small pools keep them under it, as docs/deploy.md asks of several instances.
    env: { SVC_ENGINE: engine, DATABASE_POOL_SIZE: "6" },
    globalSetup: ["e2e/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  test: {
    // Three files at once on two cores: the API files spend most of their time waiting on
    // server processes, the database and fake providers, so one file at a time (Vitest's
    // default here, cores - 1) left the machine idle: 795 s -> 337 s measured. A file that
    // asserts on a process's counters or memory starts a server of its own.
    maxWorkers: 3,
    projects: [
      {
        // The dashboard's modules import each other as `@/…` (tsconfig.json's paths).
        resolve: { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL("./", import.meta.url)) }] },
        test: {
          name: "unit",
          include: [
            "server/**/*.test.ts",
            "app/**/*.test.ts",
            "e2e/api/openapi.test.ts",
            "e2e/api/openapi-clients.test.ts",
            "packages/*/src/**/*.test.ts",
          ],
          testTimeout: 60_000,
        },
      },
      { test: { name: "cli", include: ["e2e/cli/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000 } },
      {
        // Provider clients against real local servers (a fake Cloud API, an SMTP server on
        // loopback) and the provider callbacks against an in-memory PGlite.
        test: {
          name: "providers",
          include: ["e2e/providers/**/*.test.ts"],
          env: { ALLOW_PRIVATE_WEBHOOKS: "1", AUTH_SECRET: "providers-test-secret-0123456789", LOG_LEVEL: "silent" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      api("postgres"),
      api("pglite"),
      {
        // Its engine's shared server is not needed: it starts its own database and instances.
        test: {
          name: "api-starved-cpu",
          include: [STARVES_THE_CPU],
          env: { SVC_ENGINE: "postgres", DATABASE_POOL_SIZE: "6" },
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
