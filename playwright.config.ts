import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

// Dashboard end-to-end tests in real Chromium against the real server (e2e/ui). The global
// setup seeds a fresh embedded store and starts `server/main.ts`; run `npx next build` first.

const DEBIAN_CHROMIUM = "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e/ui",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/ui/fixtures/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  // Budgets for a machine busy with other work: at a load of 15 on 2 cores a page load takes
  // 5-10 s and a test of several pages over a minute. A test still fails as soon as what it
  // waits for is wrong; these bound only how long it waits for what is right.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  outputDir: "test-results/ui",
  projects: [
    {
      name: "ui",
      use: {
        ...devices["Desktop Chrome"],
        headless: true,
        // The dashboard counts days in UTC; the browser's dates (the messages' date filter) too.
        timezoneId: "UTC",
        // No trace by default: recording one for every test (to keep only the failures') cost a
        // quarter of the run's time and CPU (layout and contacts specs: 354 s and 244 CPU-s with
        // it, 270 s and 177 CPU-s without), and a CI log cannot carry it. To see a failure step
        // by step: npx playwright test <spec> --trace on.
        trace: "off",
        launchOptions: {
          executablePath: existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined,
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
          ],
        },
      },
    },
  ],
});
