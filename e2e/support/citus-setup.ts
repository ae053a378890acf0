import { CITUS_PORTS_ENV, CITUS_SPARE_ENV, citusInstalled, startCitusCluster } from "./citus.ts";

/**
 * The api-citus project's first global setup (D87): a 3-node Citus cluster (coordinator and two
 * workers on free ports) for the run, named to the test processes by TEST_CITUS_PORTS (and a
 * spare node the rebalance test adds as a third worker, TEST_CITUS_SPARE), so that
 * e2e/support/database.ts makes every fresh database on it and the server is pointed at its
 * coordinator. vitest.config.ts gives the project no files when the extension is not installed.
 */
export default async function setup() {
  if (!citusInstalled()) throw new Error("skipping Citus: extension not installed"); // vitest.config.ts checks first
  const cluster = await startCitusCluster();
  process.env[CITUS_PORTS_ENV] = cluster.ports.join(",");
  process.env[CITUS_SPARE_ENV] = String(cluster.spare);
  return async () => {
    delete process.env[CITUS_PORTS_ENV];
    delete process.env[CITUS_SPARE_ENV];
    await cluster.stop();
  };
}
