import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freshDatabase, seedFixtures, type Engine } from "./database.ts";
import type { Fixtures } from "./fixtures.ts";
import { ROOT, startServer } from "./server.ts";

/** The retry waits of the API tests' server: nine attempts within about ten seconds. */
export const WEBHOOK_TEST_SCHEDULE = "1,1,1,1,1,1,1,1";

/** `pid`: the server process, for tests that read its memory (/proc/<pid>/status). */
export type ApiTarget = {
  engine: Engine;
  baseUrl: string;
  pid: number;
  env: Record<string, string | undefined>;
  fixtures: Fixtures;
  /** D73 path 2: where the server fetches SNS signing certificates (SNS_CERT_HOSTS), and the certificate's private key. */
  sns: { certUrl: string; privateKey: string };
};

declare module "vitest" {
  export interface ProvidedContext {
    api: ApiTarget;
  }
}

/** One fresh database and one real server per engine for the API tests of that engine. */
export default async function setup(project: TestProject) {
  const engine = project.config.env.SVC_ENGINE as Engine;
  const database = await freshDatabase(engine, `api_${engine}`, { citus: project.config.env.SVC_CITUS === "1" });
  // The inline pipeline runs (messages move), channels and webhook endpoints may point at the
  // tests' local servers, and webhook retries come after a second instead of D33's minutes.
  // The server migrates a fresh database at start, which takes minutes on a loaded machine.
  // An SNS certificate host on loopback (SNS_CERT_HOSTS; plain http as ALLOW_PRIVATE_WEBHOOKS=1
  // allows there): a self-signed test certificate that e2e/api/ses-notifications.test.ts signs with.
  const sns = await startCertHost();
  const server = await startServer(
    {
      SNS_CERT_HOSTS: new URL(sns.certUrl).host,
      ...database.env,
      PIPELINE: "inline",
      ALLOW_PRIVATE_WEBHOOKS: "1",
      WEBHOOK_TIMEOUT_SECONDS: "2",
      WEBHOOK_RETRY_SCHEDULE: WEBHOOK_TEST_SCHEDULE,
    },
    { longLived: true },
  );
  // Seeded by another process while the server runs, as operators set workspaces up: on the
  // embedded store, through the running server's socket (D53).
  const fixtures = seedFixtures(database.env);
  project.provide("api", {
    engine,
    baseUrl: server.url,
    pid: server.process.pid!,
    env: database.env,
    fixtures,
    sns: { certUrl: sns.certUrl, privateKey: sns.privateKey },
  });
  return async () => {
    await server.stop();
    keepServerLog(project.name, server.output());
    await sns.close();
    await database.drop();
  };
}

/**
 * The shared server's log (LOG_LEVEL warn: its warnings and errors), kept beside the runners'
 * reports: `npm test` prints its last error lines when Vitest failed, since a test that timed
 * out waiting on the pipeline shows only its own side.
 */
function keepServerLog(project: string, output: string): void {
  const dir = join(ROOT, "test-results", "reports");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `server-${project}.log`), output);
}

async function startCertHost(): Promise<{ certUrl: string; privateKey: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "svc-sns-"));
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=sns.us-east-1.amazonaws.com"],
      ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
    ],
    { stdio: "ignore" },
  );
  const privateKey = readFileSync(join(dir, "key.pem"), "utf8");
  const certificate = readFileSync(join(dir, "cert.pem"), "utf8");
  rmSync(dir, { recursive: true, force: true });
  const host = createServer((req, res) => {
    if (req.url === "/SimpleNotificationService-test.pem") return res.end(certificate);
    res.statusCode = req.url?.startsWith("/?Action=ConfirmSubscription") ? 200 : 404;
    res.end();
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  const port = (host.address() as AddressInfo).port;
  return {
    certUrl: `http://127.0.0.1:${port}/SimpleNotificationService-test.pem`,
    privateKey,
    close: () => new Promise((resolve) => host.close(() => resolve())),
  };
}
