import type { TestProject } from "vitest/node";
import { freshDatabase, seedFixtures, type Engine } from "./database.ts";
import type { Fixtures } from "./fixtures.ts";
import { startServer } from "./server.ts";

/** The retry waits of the API tests' server: nine attempts within about ten seconds. */
export const WEBHOOK_TEST_SCHEDULE = "1,1,1,1,1,1,1,1";

/** `pid`: the server process, for tests that read its memory (/proc/<pid>/status). */
export type ApiTarget = { engine: Engine; baseUrl: string; pid: number; env: Record<string, string | undefined>; fixtures: Fixtures };

declare module "vitest" {
  export interface ProvidedContext {
    api: ApiTarget;
  }
}

/** One fresh database and one real server per engine for the API tests of that engine. */
export default async function setup(project: TestProject) {
  const engine = project.config.env.SVC_ENGINE as Engine;
  const database = await freshDatabase(engine, `api_${engine}`);
  // The inline pipeline runs (messages move), channels and webhook endpoints may point at the
  // tests' local servers, and webhook retries come after a second instead of D33's minutes.
  // The server migrates a fresh database at start, which takes minutes on a loaded machine.
  const server = await startServer({
    ...database.env,
    PIPELINE: "inline",
    ALLOW_PRIVATE_WEBHOOKS: "1",
    WEBHOOK_TIMEOUT_SECONDS: "2",
    WEBHOOK_RETRY_SCHEDULE: WEBHOOK_TEST_SCHEDULE,
  });
  // Seeded by another process while the server runs, as operators set workspaces up: on the
  // embedded store, through the running server's socket (D53).
  const fixtures = seedFixtures(database.env);
  project.provide("api", {
    engine,
    baseUrl: server.url,
    pid: server.process.pid!,
    env: database.env,
    fixtures,
  });
  return async () => {
    await server.stop();
    await database.drop();
  };
}
