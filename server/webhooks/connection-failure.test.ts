import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { postJson } from "../providers/http-post.ts";
import { connectionFailure } from "./connection-failure.ts";

// What a failed delivery says about the connection, from real socket errors.

const fail = (url: string, timeoutMs = 2_000) =>
  postJson(new URL(url), {}, "{}", { timeoutMs, allowPrivate: true }).then(
    () => expect.unreachable("the POST should fail"),
    (err: unknown) => connectionFailure(err),
  );

describe("connectionFailure", () => {
  it("names a refused connection with its address", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    expect(await fail(`http://127.0.0.1:${port}/`)).toBe(`The endpoint refused the connection (ECONNREFUSED 127.0.0.1:${port}).`);
  });

  it("names an endpoint that never answers, with the time it was given", async () => {
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      expect(await fail(`http://127.0.0.1:${port}/`, 200)).toBe("The endpoint did not answer in time: no answer within 0.2 s.");
    } finally {
      server.close();
    }
  });

  it("names a connection closed mid-answer", async () => {
    const server = createServer((socket) => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      expect(await fail(`http://127.0.0.1:${port}/`)).toMatch(/^The connection closed before the answer was complete \(ECONNRESET\)\.$/);
    } finally {
      server.close();
    }
  });

  it("keeps any other error's own message", () => {
    expect(connectionFailure(new Error("something odd"))).toBe("something odd");
  });
});
