import type { EventEmitter } from "node:events";
import dns2 from "dns2";
import { freePort } from "./free-port.ts";

// A real DNS server on loopback (dns2), UDP and TCP on one port, for the DNS checks of D74:
// point `DNS_SERVERS` at `server`. Tests publish TXT and MX records by name; any other name is
// NXDOMAIN, a published name without the asked type answers no data. `silence()` makes it
// answer nothing at all (a resolver that times out).

const { Packet } = dns2;
const NXDOMAIN = 3; // RFC 1035 4.1.1 RCODE 3, Name Error

export type DnsFixture = {
  /** `127.0.0.1:<port>`, as DNS_SERVERS takes it. */
  server: string;
  port: number;
  /** Sets the TXT records of a name (each value one record, split into 255-byte strings); none removes them. */
  txt(name: string, ...values: string[]): void;
  /** Sets the MX records of a name; none removes them. */
  mx(name: string, ...records: { priority: number; exchange: string }[]): void;
  /** Stops (true) or resumes answering. */
  silence(on: boolean): void;
  /** How many queries were received. */
  queries(): number;
  reset(): void;
  close(): Promise<void>;
};

type Zone = Map<string, { txt: string[]; mx: { priority: number; exchange: string }[] }>;

const key = (name: string) => name.toLowerCase().replace(/\.$/, "");

/** A TXT value as DNS character-strings of at most 255 bytes (RFC 1035 3.3.14; DKIM keys are longer). */
const strings = (value: string) => value.match(/.{1,255}/gs) ?? [""];

export async function startDnsServer(): Promise<DnsFixture> {
  const zone: Zone = new Map();
  let silent = false;
  let received = 0;
  const entry = (name: string) => {
    const k = key(name);
    let e = zone.get(k);
    if (!e) zone.set(k, (e = { txt: [], mx: [] }));
    return e;
  };

  const handle = (request: InstanceType<typeof Packet>, send: (response: InstanceType<typeof Packet>) => Promise<Buffer>) => {
    received++;
    if (silent) return;
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const found = question ? zone.get(key(question.name)) : undefined;
    if (!question || !found || (found.txt.length === 0 && found.mx.length === 0)) {
      response.header.rcode = NXDOMAIN;
    } else if (question.type === Packet.TYPE.TXT) {
      for (const value of found.txt) {
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.TXT,
          class: Packet.CLASS.IN,
          ttl: 60,
          data: strings(value),
        } as never);
      }
    } else if (question.type === Packet.TYPE.MX) {
      for (const { priority, exchange } of found.mx) {
        response.answers.push({ name: question.name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, priority, exchange } as never);
      }
    }
    void send(response);
  };
  // UDP and TCP on one port (a truncated UDP answer is asked again over TCP), chosen below the
  // system's ephemeral range (free-port.ts): a UDP port the system handed out could be taken
  // over TCP by an outgoing connection or another listen(0) (a UI run failed with EADDRINUSE
  // so). A port taken over UDP meanwhile by another test's choice is given up for another.
  const bound = (server: EventEmitter, start: (done: () => void) => void) =>
    new Promise<boolean>((resolve) => {
      const failed = () => resolve(false);
      server.once("error", failed);
      start(() => {
        server.off("error", failed);
        resolve(true);
      });
    });
  const tcp = dns2.createTCPServer(handle as never);
  let udp: ReturnType<typeof dns2.createUDPServer>;
  let port = 0;
  for (;;) {
    port = await freePort();
    udp = dns2.createUDPServer(handle as never); // a socket whose bind failed is closed: a new one each time
    if (!(await bound(udp as never, (done) => udp.bind(port, "127.0.0.1", done)))) continue;
    if (await bound(tcp as never, (done) => tcp.listen(port, "127.0.0.1", done))) break;
    await new Promise<void>((resolve) => udp.close(() => resolve()));
  }

  return {
    server: `127.0.0.1:${port}`,
    port,
    txt(name, ...values) {
      entry(name).txt = values;
    },
    mx(name, ...records) {
      entry(name).mx = records;
    },
    silence(on) {
      silent = on;
    },
    queries: () => received,
    reset() {
      zone.clear();
      silent = false;
    },
    async close() {
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}
