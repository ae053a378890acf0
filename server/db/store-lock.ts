import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The embedded store (PGlite) may be opened by one process at a time: a second opener would
 * corrupt it. The opener writes its pid to DATA_DIR/store.lock; another process finding a
 * live pid there refuses with a clear message. A lock left by a dead process is taken over.
 * A server holding the lock serves the store to the others (store-server.ts, D53).
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
      const owner = lockOwner(dataDir);
      if (owner !== null) {
        throw new Error(
          `The embedded store in ${dataDir} is in use by process ${owner}, which does not share it ` +
            "(another command, or a server still starting). Try again when it has finished; a running " +
            "server shares the store with commands.",
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded store in ${dataDir}.`);
}

/** The live process other than this one holding the store, if any. */
export function lockOwner(dataDir: string): number | null {
  let owner: number;
  try {
    owner = Number(readFileSync(join(dataDir, "store.lock"), "utf8"));
  } catch {
    return null;
  }
  return owner && owner !== process.pid && alive(owner) ? owner : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
