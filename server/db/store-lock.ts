import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The embedded store (PGlite) may be opened by one process at a time: a second opener would
 * corrupt it. The opener writes its pid to DATA_DIR/store.lock; another process finding a
 * live pid there refuses with a clear message. A lock left by a dead process is taken over.
 */
export function lockStore(dataDir: string): () => void {
  const file = join(dataDir, "store.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      const release = () => rmSync(file, { force: true });
      process.once("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(readFileSync(file, "utf8"));
      if (owner && owner !== process.pid && alive(owner)) {
        throw new Error(
          `The embedded store in ${dataDir} is in use by process ${owner} (a running server?). ` +
            "Stop it first, or set DATABASE_URL so several processes can share PostgreSQL.",
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded store in ${dataDir}.`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
