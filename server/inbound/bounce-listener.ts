import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { Database } from "../db/client.ts";
import { log } from "../lib/log.ts";
import { recordBounce, recordComplaint } from "../suppressions/email-reports.ts";
import { readReport } from "./bounce-report.ts";

// D73: the service's own SMTP listener (INBOUND_SMTP_PORT, off by default). It takes mail for
// a channel's return path only, `bounces+<msg id>@<bounce domain>` (VERP: the address names
// the message, so a report needs no guessing), refused at RCPT TO otherwise; reads delivery
// status notifications and complaint reports (bounce-report.ts) and applies them
// (suppressions/email-reports.ts). Bounded: a mail over MAX_BYTES is refused (its bytes are
// not kept), a client has at most PER_CLIENT connections at once and PER_MINUTE a minute, the
// listener MAX_CLIENTS. Logs carry no address and no content.

const MAX_BYTES = 1024 * 1024;
const MAX_CLIENTS = 100;
const PER_CLIENT = 5;
const PER_MINUTE = 60;
const MAX_RECIPIENTS = 10;
const RETURN_PATH = /^bounces\+(msg_[0-9A-Za-z]{1,64})@([a-z0-9.-]{1,253})$/i;

type Target = { id: string; workspaceId: string; mode: "test" | "live"; contactId: string };

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/** The message a return path names, when it was sent through a channel with that bounce domain. */
async function targetOf(database: Database, recipient: string): Promise<Target | null> {
  const match = RETURN_PATH.exec(recipient.trim());
  if (!match) return null;
  const [row] = await database.query<{ id: string; workspace_id: string; mode: "test" | "live"; contact_id: string }>(
    `SELECT m.id, m.workspace_id, m.mode::text AS mode, m.contact_id FROM messages m JOIN channels c ON c.workspace_id = m.workspace_id AND c.id = m.channel_id
     WHERE m.id = $1 AND m.channel = 'email' AND lower(c.settings->>'bounce_domain') = lower($2)`,
    [match[1], match[2]],
  );
  return row ? { id: row.id, workspaceId: row.workspace_id, mode: row.mode, contactId: row.contact_id } : null;
}

export type BounceListener = { port: number; close(): Promise<void> };

export async function startBounceListener(database: Database, port: number, host?: string): Promise<BounceListener> {
  const targets = new WeakMap<SMTPServerSession, Target[]>();
  const open = new Map<string, number>();
  const minute = new Map<string, number>();
  const window = setInterval(() => minute.clear(), 60_000);
  window.unref();

  const server = new SMTPServer({
    name: "svc-bounces",
    banner: "bounce and complaint reports only",
    logger: false,
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    size: MAX_BYTES,
    maxClients: MAX_CLIENTS,
    socketTimeout: 30_000,
    closeTimeout: 5_000,
    onConnect(session, callback) {
      const peer = session.remoteAddress;
      const now = (open.get(peer) ?? 0) + 1;
      const count = (minute.get(peer) ?? 0) + 1;
      minute.set(peer, count);
      if (now > PER_CLIENT || count > PER_MINUTE) {
        log().warn({ smtp: "refused", reason: "connection_limit" }, "bounce listener: too many connections from one client");
        return callback(smtpError(421, "Too many connections, try again later"));
      }
      open.set(peer, now);
      callback();
    },
    onClose(session) {
      const peer = session.remoteAddress;
      const left = (open.get(peer) ?? 1) - 1;
      if (left <= 0) open.delete(peer);
      else open.set(peer, left);
    },
    onRcptTo(address, session, callback) {
      const list = targets.get(session) ?? [];
      if (list.length >= MAX_RECIPIENTS) return callback(smtpError(452, "Too many recipients"));
      targetOf(database, address.address).then(
        (target) => {
          if (!target) {
            log().info({ smtp: "refused", reason: "unknown_recipient" }, "bounce listener: not a return path of this service");
            return callback(smtpError(550, "5.1.1 No such return path"));
          }
          targets.set(session, [...list, target]);
          callback();
        },
        (err: unknown) => {
          log().error({ err }, "bounce listener: look-up failed");
          callback(smtpError(451, "4.3.0 Try again later"));
        },
      );
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BYTES) chunks.push(chunk);
      });
      stream.on("end", () => {
        if (stream.sizeExceeded || size > MAX_BYTES) {
          log().info({ smtp: "refused", reason: "too_large", bytes: size }, "bounce listener: mail over the size limit");
          return callback(smtpError(552, "5.3.4 Message too big"));
        }
        apply(database, Buffer.concat(chunks), targets.get(session) ?? []).then(
          (outcome) => {
            targets.delete(session);
            if (outcome === "unreadable") return callback(smtpError(550, "5.6.0 Not a delivery status notification or feedback report"));
            callback(null, "Report received");
          },
          (err: unknown) => {
            log().error({ err }, "bounce listener: applying a report failed");
            callback(smtpError(451, "4.3.0 Try again later"));
          },
        );
      });
    },
  });
  server.on("error", (err) => log().warn({ err }, "bounce listener: connection error"));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  log().info({ port: bound }, "bounce listener: listening");
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(window);
        server.close(() => resolve());
      }),
  };
}

/** Reads the mail and applies it to each message it was addressed to. */
async function apply(database: Database, raw: Buffer, targets: Target[]): Promise<"applied" | "unreadable"> {
  const report = await readReport(raw).catch(() => null);
  if (!report) {
    log().info({ smtp: "refused", reason: "not_a_report" }, "bounce listener: mail is neither a DSN nor an ARF report");
    return "unreadable";
  }
  for (const target of targets) {
    if (report.kind === "complaint") {
      await recordComplaint(database, target, {
        source: "inbound_smtp",
        feedbackType: report.feedbackType,
        detail: { feedback_type: report.feedbackType },
      });
    } else {
      await recordBounce(database, target.id, {
        source: "inbound_smtp",
        permanent: report.permanent,
        diagnostic: report.diagnostic,
        smtpCode: report.smtpCode,
        detail: { status: report.status },
      });
    }
    log().info({ smtp: "report", kind: report.kind, message: target.id }, "bounce listener: report applied");
  }
  return "applied";
}
