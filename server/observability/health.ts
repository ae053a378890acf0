import type { Database } from "../db/client.ts";
import { appliedMigrations, migrationNames } from "../db/migrations.ts";

// D52: `/readyz`. Ready when the database answers, every migration of this build is applied,
// and the inline pipeline (when this process runs it) completed a pass in the last 30 s.

export const PIPELINE_STALE_MS = 30_000;
const DATABASE_TIMEOUT_MS = 2_000;

export type Check = { name: string; ok: boolean; detail?: string };
export type Readiness = { ok: boolean; checks: Check[] };

export function readinessProbe(database: Database, root: string, lastPass: (() => number | null) | null): () => Promise<Readiness> {
  const expected = migrationNames(root);
  return async () => {
    const checks: Check[] = [];
    let applied: string[] | null = null;
    try {
      applied = await withTimeout(appliedMigrations(database), DATABASE_TIMEOUT_MS);
      checks.push({ name: "database", ok: true });
    } catch (err) {
      checks.push({ name: "database", ok: false, detail: err instanceof Error ? err.message : String(err) });
    }
    const missing = applied ? expected.filter((name) => !applied.includes(name)) : expected;
    checks.push(
      applied && missing.length === 0
        ? { name: "migrations", ok: true }
        : {
            name: "migrations",
            ok: false,
            detail: applied ? `not applied: ${missing.join(", ")}` : "unknown: the database does not answer",
          },
    );
    if (lastPass) {
      const at = lastPass();
      const age = at === null ? null : Date.now() - at;
      checks.push(
        age !== null && age <= PIPELINE_STALE_MS
          ? { name: "pipeline", ok: true }
          : { name: "pipeline", ok: false, detail: age === null ? "no pass completed yet" : `last pass ${Math.round(age / 1000)} s ago` },
      );
    }
    return { ok: checks.every((c) => c.ok), checks };
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}
