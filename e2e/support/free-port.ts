import { createServer } from "node:net";

// Linux hands out ports from 32768 up (ip_local_port_range) to every listen(0) and outgoing
// connection. A port found free by listen(0) and released is back in that pool: a fake
// provider or a client connection of another test can take it before the server that was
// meant to listen on it starts (a UI run failed with EADDRINUSE so). Ports below the pool are
// only ever taken on purpose, so one chosen there and found free stays free.
const LOW = 20_000;
const HIGH = 32_767;

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    // 0.0.0.0: free on every address, loopback included.
    probe.listen(port, "0.0.0.0", () => probe.close(() => resolve(true)));
  });
}

/** A port nothing listens on now, outside the range the system hands out by itself. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (await bindable(port)) return port;
  }
}
