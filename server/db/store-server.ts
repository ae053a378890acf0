import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketHandler } from "@electric-sql/pglite-socket";
import { createServer, type Server, type Socket } from "node:net";

/**
 * D53: the process that holds the embedded store serves it to the other local processes (the
 * CLI, a second server) on a Unix socket in DATA_DIR, in PostgreSQL's wire protocol, so they
 * reach it through `pg` exactly as they reach PostgreSQL.
 *
 * PGlite is one backend session. pglite-socket's handler frames the protocol messages of each
 * connection; what runs when is decided here, because its own queue interleaves two clients'
 * messages between a Parse and its Sync and ignores this process's own queries. A connection
 * takes PGlite's transaction lock (the one `query()` and `transaction()` of this process take)
 * at its first message and keeps it until PGlite answers ReadyForQuery with status `I` (idle):
 * a statement, or a whole transaction, runs with nobody else's messages in between, and this
 * process's own transactions never see a socket client's statement inside them.
 */

/** The socket file in DATA_DIR, named so that `pg` finds it with `host: DATA_DIR, port: 5432`. */
export const STORE_SOCKET_PORT = 5432;
export function storeSocketPath(dataDir: string): string {
  return join(dataDir, `.s.PGSQL.${STORE_SOCKET_PORT}`);
}

/** Unix socket paths are limited to about 107 bytes on Linux. */
export function canServe(dataDir: string): boolean {
  return Buffer.byteLength(storeSocketPath(dataDir)) < 104;
}

type Turn = { release: () => void };

// The transaction lock of PGlite: declared on its base class, not on the public type.
type Lockable = PGlite & { _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> };

const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]); // 'S'
const ROLLBACK = (() => {
  const text = Buffer.from("ROLLBACK\0");
  const msg = Buffer.alloc(5 + text.length);
  msg.write("Q", 0);
  msg.writeInt32BE(4 + text.length, 1);
  text.copy(msg, 5);
  return new Uint8Array(msg);
})();

/** One client's turn at the store: a statement, or a transaction, start to end. */
class Session {
  private turn: Turn | null = null;
  private status = "I";

  constructor(private readonly db: Lockable) {}

  private async take(): Promise<void> {
    if (this.turn) return;
    await new Promise<void>((acquired) => {
      void this.db._runExclusiveTransaction(
        () =>
          new Promise<void>((release) => {
            this.turn = { release };
            acquired();
          }),
      );
    });
  }

  private give(): void {
    this.turn?.release();
    this.turn = null;
  }

  private async run(message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    let bytes = 0;
    let tail = Buffer.alloc(0);
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(message, {
        onRawData: (data) => {
          bytes += data.length;
          tail = Buffer.concat([tail, Buffer.from(data)]).subarray(-6);
          onData(data);
        },
      }),
    );
    // ReadyForQuery ('Z', length 5, status) ends the answer to a Sync or a simple Query.
    if (tail.length === 6 && tail[0] === 0x5a && tail.readInt32BE(1) === 5) this.status = String.fromCharCode(tail[5]!);
    return bytes;
  }

  private queue: Promise<unknown> = Promise.resolve();

  /** pglite-socket's handler may hand over a connection's messages from overlapping reads: one at a time, in order. */
  enqueue(_handler: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const next = this.queue.then(() => this.execute(message, onData));
    this.queue = next.catch(() => {});
    return next;
  }

  private async execute(message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const type = message[0];
    if (type === 0x58) return 0; // Terminate: the shared session stays; the socket's end is handled below.
    await this.take();
    try {
      const bytes = await this.run(message, onData);
      const ends = type === 0x53 || type === 0x51 || isStartup(message); // Sync, Query, startup
      if (ends && this.status === "I") this.give();
      return bytes;
    } catch (err) {
      this.give();
      throw err;
    }
  }

  clearQueueForHandler(): void {}

  /** The client went away: end what it left open, then let the others in. */
  async clearTransactionIfNeeded(): Promise<void> {
    await this.queue;
    if (!this.turn) return;
    try {
      await this.run(SYNC, () => {});
      if (this.status !== "I") await this.run(ROLLBACK, () => {});
    } finally {
      this.give();
    }
  }
}

function isStartup(message: Uint8Array): boolean {
  return message.length >= 8 && Buffer.from(message).readInt32BE(4) === 196608;
}

/** Serves the open store on DATA_DIR's socket; answers a function that stops serving. */
export async function serveStore(db: PGlite, dataDir: string): Promise<() => Promise<void>> {
  const path = storeSocketPath(dataDir);
  // Only the holder of the store lock serves, so a socket file here is a dead server's.
  if (existsSync(path)) rmSync(path, { force: true });
  const handlers = new Set<PGLiteSocketHandler>();
  const server: Server = createServer((socket: Socket) => {
    const session = new Session(db as Lockable);
    const handler = new PGLiteSocketHandler({
      queryQueue: session as unknown as ConstructorParameters<typeof PGLiteSocketHandler>[0]["queryQueue"],
      closeOnDetach: true,
    });
    handlers.add(handler);
    handler.addEventListener("close", () => handlers.delete(handler));
    handler.addEventListener("error", () => handlers.delete(handler));
    void handler.attach(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
  return async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const h of handlers) void h.detach(true);
    });
    rmSync(path, { force: true });
  };
}
