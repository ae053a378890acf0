import { defineConfig } from "vitest/config";

// Unit tests beside the code; API integration tests run twice, once per engine, each against
// a real server process (e2e/support/global-setup.ts).
const api = (engine: "postgres" | "pglite") => ({
  test: {
    name: `api-${engine}`,
    include: ["e2e/api/**/*.test.ts"],
    exclude: ["e2e/api/openapi.test.ts"],
    env: { SVC_ENGINE: engine },
    globalSetup: ["e2e/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["server/**/*.test.ts", "e2e/api/openapi.test.ts"], testTimeout: 60_000 } },
      { test: { name: "cli", include: ["e2e/cli/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000 } },
      api("postgres"),
      api("pglite"),
    ],
  },
});
