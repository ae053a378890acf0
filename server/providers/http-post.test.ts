import { createServer as createTcpServer } from "node:net";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { postJson, requestNotReceived } from "./http-post.ts";

// A provider call's deadline and what its failures prove (D47), against real sockets.

/**
 * An HTTP server on its own thread (its event loop keeps running while this one is blocked).
 * Flags shared with this thread: `received` turns 1 when a request has arrived; the answer is
 * written only once this thread sets `go`, and `written` turns 1 when the kernel has it.
 */
async function heldServer() {
  const flags = new Int32Array(new SharedArrayBuffer(12));
  const [RECEIVED, GO, WRITTEN] = [0, 1, 2];
  const worker = new Worker(
    `const { parentPort, workerData: { flags } } = require("node:worker_threads");
     const http = require("node:http");
     const server = http.createServer((req, res) => {
       req.resume();
       req.on("end", () => {
         Atomics.store(flags, ${RECEIVED}, 1);
         const answer = setInterval(() => {
           if (Atomics.load(flags, ${GO}) !== 1) return;
           clearInterval(answer);
           res.writeHead(200, { "content-type": "application/json" });
           res.end('{"messages":[{"id":"wamid.late"}]}', () => Atomics.store(flags, ${WRITTEN}, 1));
         }, 2);
       });
     });
     server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));`,
    { eval: true, workerData: { flags } },
  );
  const port = await new Promise<number>((resolve) => worker.once("message", resolve));
  return {
    url: `http://127.0.0.1:${port}/v21.0/1/messages`,
    received: () => Atomics.load(flags, RECEIVED) === 1,
    answer: () => Atomics.store(flags, GO, 1),
    written: () => Atomics.load(flags, WRITTEN) === 1,
    close: () => worker.terminate(),
  };
}

/** Keeps this thread busy (its event loop stalled, as on a starved CPU) until `done` holds. */
function stall(done: () => boolean): void {
  while (!done()) {
    /* busy */
  }
}

describe("postJson's deadline", () => {
  it("reads an answer that arrived in time before judging the deadline, however late the event loop gets to it", async () => {
    const server = await heldServer();
    try {
      const started = Date.now();
      const timeoutMs = 3_000;
      const call = postJson(new URL(server.url), {}, "{}", { timeoutMs, allowPrivate: true });
      while (!server.received()) await new Promise((resolve) => setTimeout(resolve, 5));
      // Then the loop stalls, as on a starved CPU: the answer comes into the socket meanwhile,
      // and the deadline passes. The stall is in the loop's check phase (an immediate), so the
      // next turn starts with its timers, the deadline's among them, before it polls the socket.
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          server.answer();
          stall(() => server.written() && Date.now() - started > timeoutMs + 200);
          resolve();
        }),
      );
      const answer = await call;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ messages: [{ id: "wamid.late" }] });
    } finally {
      await server.close();
    }
  });

  it("ends a call that gets no answer at its deadline", async () => {
    const server = createTcpServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const started = Date.now();
      const err = await postJson(new URL(`http://127.0.0.1:${port}/`), {}, "{}", { timeoutMs: 200, allowPrivate: true }).catch((e) => e);
      expect(err).toMatchObject({ name: "TimeoutError", code: "ETIMEDOUT" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      // The request was written: whether the server acted on it is unknown.
      expect(requestNotReceived(err)).toBe(false);
    } finally {
      server.close();
    }
  });
});

describe("requestNotReceived", () => {
  it("holds for a refused connection: nothing reached the server", async () => {
    const server = createTcpServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const err = await postJson(new URL(`http://127.0.0.1:${port}/`), {}, "{}", { timeoutMs: 2_000, allowPrivate: true }).catch((e) => e);
    expect(err.code).toBe("ECONNREFUSED");
    expect(requestNotReceived(err)).toBe(true);
  });

  it("holds for a private address refused before connecting", async () => {
    const err = await postJson(new URL("http://10.0.0.1/"), {}, "{}", { timeoutMs: 2_000, allowPrivate: false }).catch((e) => e);
    expect(requestNotReceived(err)).toBe(true);
  });

  it("does not hold when the connection closed after the request was read", async () => {
    const server = createTcpServer((socket) => socket.once("data", () => socket.destroy()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const err = await postJson(new URL(`http://127.0.0.1:${port}/`), {}, "{}", { timeoutMs: 2_000, allowPrivate: true }).catch((e) => e);
      expect(err.code).toBe("ECONNRESET");
      expect(requestNotReceived(err)).toBe(false);
    } finally {
      server.close();
    }
  });
});
