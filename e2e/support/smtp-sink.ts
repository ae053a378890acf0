import { randomBytes, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerAddress } from "smtp-server";

// A real SMTP server on loopback (smtp-server) that keeps every message it accepts, for tests
// of the e-mail channel: point a channel's `smtp_url` at `url`. `reject(code)` makes it answer
// the following messages with that reply code (5xx permanent, 4xx temporary in D39's terms).
// Each accepted message gets a queue id of its own in the 250 reply, as Postfix gives
// (`250 2.0.0 Ok: queued as <id>`), or as Amazon SES gives (`250 Ok <id>`) with `replyLike: "ses"`.

export type SinkMessage = {
  from: string | null;
  to: string[];
  /** The message as received (RFC 5322), headers and body. */
  raw: string;
  user: string | null;
  at: number;
  /** The id the sink's 250 reply gave the message. */
  queueId: string;
};

export type Rejection = { code: number; message?: string; at?: "rcpt" | "data"; times?: number };

export type SmtpSink = {
  /** `smtp://127.0.0.1:<port>`; add `user:password@` when the sink was started with `auth`. */
  url: string;
  port: number;
  messages: SinkMessage[];
  /** Reject the following messages with this code (at DATA by default); `null` accepts again. */
  reject(code: number | null, opts?: Omit<Rejection, "code">): void;
  setLatency(ms: number): void;
  waitForMessages(count: number, timeoutMs?: number): Promise<SinkMessage[]>;
  reset(): void;
  close(): Promise<void>;
};

export async function startSmtpSink(
  opts: { auth?: { user: string; pass: string }; latencyMs?: number; replyLike?: "postfix" | "ses" } = {},
): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  let rejection: Rejection | null = null;
  let latencyMs = opts.latencyMs ?? 0;
  const waiters = new Set<() => void>();

  const refuse = (at: "rcpt" | "data"): Error | null => {
    if (!rejection || (rejection.at ?? "data") !== at) return null;
    const err = Object.assign(
      new Error(rejection.message ?? (rejection.code >= 500 ? "5.1.1 Mailbox unavailable" : "4.7.1 Try again later")),
      {
        responseCode: rejection.code,
      },
    );
    if (rejection.times !== undefined && --rejection.times <= 0) rejection = null;
    return err;
  };

  const server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (opts.auth && (auth.username !== opts.auth.user || auth.password !== opts.auth.pass)) {
        return callback(Object.assign(new Error("5.7.8 Authentication credentials invalid"), { responseCode: 535 }));
      }
      callback(null, { user: auth.username ?? "" });
    },
    onRcptTo(_address: SMTPServerAddress, _session, callback) {
      callback(refuse("rcpt") ?? undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const finish = () => {
          const refused = refuse("data");
          if (refused) return callback(refused);
          const queueId =
            opts.replyLike === "ses"
              ? `0100019${randomBytes(8).toString("hex")}-${randomUUID()}-000000`
              : randomBytes(6).toString("hex").toUpperCase();
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString("utf8"),
            user: typeof session.user === "string" ? session.user : null,
            at: Date.now(),
            queueId,
          });
          for (const wake of waiters) wake();
          callback(null, opts.replyLike === "ses" ? `Ok ${queueId}` : `2.0.0 Ok: queued as ${queueId}`);
        };
        if (latencyMs > 0) setTimeout(finish, latencyMs);
        else finish();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  const userinfo = opts.auth ? `${encodeURIComponent(opts.auth.user)}:${encodeURIComponent(opts.auth.pass)}@` : "";

  return {
    url: `smtp://${userinfo}127.0.0.1:${port}`,
    port,
    messages,
    reject(code, o = {}) {
      rejection = code === null ? null : { code, ...o };
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    waitForMessages(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(messages.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`SMTP sink got ${messages.length} of ${count} messages`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    reset() {
      messages.length = 0;
      rejection = null;
      latencyMs = opts.latencyMs ?? 0;
    },
    close() {
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** What tests read of mailparser's result (the package ships no types). */
export type ParsedMail = {
  headers: Map<string, unknown>;
  subject?: string;
  from?: { text: string };
  to?: { text: string };
  replyTo?: { text: string };
  messageId?: string;
  html: string | false;
  text?: string;
};

const { simpleParser } = createRequire(import.meta.url)("mailparser") as { simpleParser: (raw: string) => Promise<ParsedMail> };

/** A received message parsed with mailparser (headers, html, text). */
export function parseMessage(message: SinkMessage): Promise<ParsedMail> {
  return simpleParser(message.raw);
}
