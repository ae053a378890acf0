import nodemailer, { type Transporter } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import { env } from "../lib/env.ts";
import { checkHost } from "../lib/private-address.ts";
import { dkimSigning } from "./dkim.ts";
import { decorateHtml, htmlToText } from "./email-html.ts";
import { signToken } from "./email-token.ts";
import type { ChannelConfig, Content, OutboundMessage, ProviderClient, ProviderDetail, ProviderResult } from "./provider.ts";

// E-mail over SMTP through nodemailer, to any relay (D39): `sent` when the relay accepts the
// message, `failed` on a 5xx reply, retried on a 4xx reply, a refused connection or a timeout
// before the whole message was sent. Once it was (the final "." written), a relay that never
// answers may have taken it: the outcome is unknown and the message is never sent again (D47).
// One pooled transport per channel (and SMTP URL), reused across sends.

const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000, dnsTimeout: 10_000 };
const IDLE_CLOSE_MS = 5 * 60_000;
/** SMTP connections one process keeps open to one channel's relay. */
const MAX_CONNECTIONS = 5;

type Pooled = { transport: Transporter<SMTPPool.SentMessageInfo>; inFlight: number; lastUsed: number };

// In-process cache only (a connection pool, not shared state): another instance opens its own.
const pools = new Map<string, Pooled>();
let sweeper: NodeJS.Timeout | undefined;

/** Closes every pooled SMTP connection (shutdown, tests). */
export function closeSmtpTransports(): void {
  for (const pooled of pools.values()) pooled.transport.close();
  pools.clear();
  if (sweeper) clearInterval(sweeper);
  sweeper = undefined;
}

function sweepIdle(): void {
  const now = Date.now();
  for (const [key, pooled] of pools) {
    if (pooled.inFlight === 0 && now - pooled.lastUsed > IDLE_CLOSE_MS) {
      pooled.transport.close();
      pools.delete(key);
    }
  }
}

class SmtpSetupError extends Error {
  constructor(
    message: string,
    readonly outcome: "permanent" | "temporary",
  ) {
    super(message);
  }
}

/**
 * The transport of a channel. Unless private addresses are allowed, the relay's host is
 * resolved and checked here and the connection is pinned to the checked address (TLS still
 * verifies the host name), so the name cannot resolve elsewhere afterwards.
 */
async function transportFor(channel: ChannelConfig): Promise<Pooled> {
  const smtpUrl = channel.secrets.smtp_url;
  if (!smtpUrl) throw new SmtpSetupError("The channel has no smtp_url.", "permanent");
  const key = `${channel.id}\n${smtpUrl}`;
  const cached = pools.get(key);
  if (cached) return cached;

  const url = new URL(smtpUrl);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  let host = hostname;
  if (!env().allowPrivateWebhooks) {
    const check = await checkHost(hostname);
    if (!check.ok && check.reason === "unresolvable") throw new SmtpSetupError(`The SMTP host ${hostname} does not resolve.`, "temporary");
    if (!check.ok) throw new SmtpSetupError(`smtp_url: ${hostname} resolves to a private address (${check.address}).`, "permanent");
    host = check.addresses[0]!;
  }
  const secure = url.protocol === "smtps:";
  // `maxRequeues` is nodemailer's (smtp-pool), missing from its type definitions.
  const options: SMTPPool.Options & { maxRequeues: number } = {
    pool: true,
    host,
    ...(host !== hostname ? { servername: hostname } : {}),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    maxConnections: MAX_CONNECTIONS,
    maxMessages: 100,
    // A connection that closes while it sends fails the send, instead of nodemailer sending the
    // message again on another connection: it may have been taken (D47); the pipeline decides.
    maxRequeues: 0,
    ...TIMEOUTS,
  };
  const transport = nodemailer.createTransport(options);
  // Marks a send whose whole message has been handed to the connection (see `STREAMED`).
  transport.use("stream", (mail, done) => {
    const streamed = (mail.data as Record<string, unknown>)[STREAMED];
    if (typeof streamed === "function") {
      mail.message.processFunc((input) => {
        input.once("end", streamed as () => void);
        return input;
      });
    }
    done();
  });
  const pooled: Pooled = { transport, inFlight: 0, lastUsed: Date.now() };
  // Another send may have created one meanwhile: keep the first, close ours.
  const raced = pools.get(key);
  if (raced) {
    pooled.transport.close();
    return raced;
  }
  pools.set(key, pooled);
  if (!sweeper) {
    sweeper = setInterval(sweepIdle, 60_000);
    sweeper.unref();
  }
  return pooled;
}

/**
 * A `sendMail` option this module's stream plugin calls once the message's last byte has gone
 * to the connection, whose end (the final ".") follows at once: from then on the relay may
 * take the message whatever happens to its answer.
 */
const STREAMED = "svcStreamed";

type EmailContent = Extract<Content, { html: string }>;

const isEmailContent = (c: Content): c is EmailContent => "html" in c;

/** Where the tracking image and unsubscribe link point (the channel's base, or APP_URL). */
export function trackingLinks(channel: ChannelConfig, messageId: string): { openUrl: string; unsubscribeUrl: string } {
  const base = (channel.settings.tracking_base_url ?? env().appUrl).replace(/\/+$/, "");
  const token = signToken(messageId);
  return { openUrl: `${base}/api/providers/email/open/${token}`, unsubscribeUrl: `${base}/api/providers/email/unsubscribe/${token}` };
}

/** D92: `<flow id or "api">:<channel id>:<workspace id>:svc`. */
export const feedbackId = (channel: Pick<ChannelConfig, "id" | "workspaceId">, message: Pick<OutboundMessage, "flowId">) =>
  `${message.flowId ?? "api"}:${channel.id}:${channel.workspaceId}:svc`;

/** The nodemailer message for one e-mail, with its tracking, unsubscribe headers and text part. */
export function buildMail(channel: ChannelConfig, message: OutboundMessage, content: EmailContent) {
  const from = channel.settings.from ?? channel.externalId;
  const links = trackingLinks(channel, message.id);
  const html = decorateHtml(content.html, links, content.preview_text);
  const dkim = dkimSigning(channel.settings, channel.secrets);
  return {
    from,
    to: message.to,
    subject: content.subject,
    html,
    text: htmlToText(html),
    ...(content.reply_to ? { replyTo: content.reply_to } : {}),
    // Our own id in the Message-ID, so an events call may quote either.
    messageId: `<${message.id}@${from.slice(from.lastIndexOf("@") + 1)}>`,
    // D73 (VERP): with a bounce domain, the return path names the message, so its bounce
    // comes back to the service's SMTP listener addressed to it.
    ...(channel.settings.bounce_domain
      ? { envelope: { from: `bounces+${message.id}@${channel.settings.bounce_domain}`, to: message.to } }
      : {}),
    headers: {
      "List-Unsubscribe": `<${links.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      // D92: Gmail's feedback loop reports complaints per value of this header.
      "Feedback-ID": feedbackId(channel, message),
    },
    // D74: a channel with a DKIM key signs every mail (rsa-sha256, relaxed/relaxed, d= the
    // From domain so that DMARC aligns).
    ...(dkim ? { dkim } : {}),
  };
}

/**
 * The id a relay gives the mail in its 250 reply, when it names one: Amazon SES answers
 * `250 Ok 0100018c…-000000`, the `mail.messageId` of its notifications (SES replaces the mail's
 * Message-ID header with its own, so that id is the only one its reports carry); Postfix and
 * most relays answer `250 2.0.0 Ok: queued as 4FQ3Zk1YbH`. Null for any other reply: the
 * message's provider id is then its Message-ID.
 */
export function relayMessageId(reply: string): string | null {
  return /^250[ -](?:[245]\.\d{1,3}\.\d{1,3} )?ok(?::? queued as)? ([!-~]{1,200})$/i.exec(reply.trim())?.[1] ?? null;
}

type SmtpError = Error & { code?: string; responseCode?: number; response?: string; command?: string };

/**
 * D39: a 5xx reply is permanent; a 4xx reply is temporary, and so is a failure without a reply
 * (a refused connection, a timeout) before the whole message was sent. After it was, with no
 * reply, the relay may have taken the message: unknown (D47).
 */
export function mapSmtpError(err: SmtpError, detail: ProviderDetail, streamed: boolean): ProviderResult {
  const reply = err.response?.trim();
  const withCode = {
    ...detail,
    ...(err.responseCode ? { status_code: err.responseCode } : {}),
    ...(reply ? { excerpt: reply.slice(0, 500) } : {}),
  };
  if (err.responseCode && err.responseCode >= 500) {
    return {
      outcome: "permanent",
      error: reply || err.message,
      detail: withCode,
      errorCode: `smtp_${err.responseCode}`,
      // D73: a 5xx to the recipient or to the message suppresses the address; one to the
      // sender's login or MAIL FROM says nothing about the recipient.
      addressRejected: err.command === "RCPT TO" || err.command === "DATA",
    };
  }
  if (err.responseCode && err.responseCode >= 400)
    return { outcome: "temporary", error: reply || err.message, detail: withCode, errorCode: `smtp_${err.responseCode}` };
  const what = err.code === "ETIMEDOUT" ? "timed out" : err.code === "ECONNECTION" ? "connection failed" : "failed";
  if (streamed) {
    return {
      outcome: "unknown",
      error: `SMTP ${what} after the whole message was sent: ${err.message}. Whether the mail server took it is unknown.`,
      detail: withCode,
    };
  }
  return { outcome: "temporary", error: `SMTP ${what}: ${err.message}`, detail: withCode };
}

export const smtp: ProviderClient = {
  // Connecting, the greeting and one idle stretch of the conversation, each at its timeout.
  timeoutMs: TIMEOUTS.connectionTimeout + TIMEOUTS.greetingTimeout + TIMEOUTS.socketTimeout,
  // Twice its pooled connections: each has the next message ready behind the one it sends;
  // more would only wait in nodemailer's queue, holding the worker's slots.
  maxInFlight: 2 * MAX_CONNECTIONS,
  async send(channel: ChannelConfig, message: OutboundMessage): Promise<ProviderResult> {
    if (!isEmailContent(message.content)) return { outcome: "permanent", error: "The message is not an e-mail.", detail: {} };
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let pooled: Pooled;
    try {
      pooled = await transportFor(channel);
    } catch (err) {
      if (err instanceof SmtpSetupError) return { outcome: err.outcome, error: err.message, detail: { duration_ms: elapsed() } };
      return { outcome: "permanent", error: `smtp_url cannot be used: ${(err as Error).message}`, detail: {} };
    }
    pooled.inFlight++;
    pooled.lastUsed = Date.now();
    let streamed = false;
    try {
      const mail = { ...buildMail(channel, message, message.content), [STREAMED]: () => (streamed = true) };
      const info = await pooled.transport.sendMail(mail);
      const response = info.response?.trim() ?? "";
      const code = Number(/^\d{3}/.exec(response)?.[0] ?? 0);
      const detail: ProviderDetail = {
        request_id: info.messageId,
        ...(code ? { status_code: code } : {}),
        excerpt: response.slice(0, 500),
        duration_ms: elapsed(),
      };
      if (info.rejected.length > 0 && info.accepted.length === 0) {
        return {
          outcome: "permanent",
          error: response || "The relay rejected the recipient.",
          detail,
          ...(code >= 500 ? { errorCode: `smtp_${code}`, addressRejected: true } : {}),
        };
      }
      return { outcome: "accepted", providerMessageId: relayMessageId(response) ?? info.messageId, detail };
    } catch (err) {
      return mapSmtpError(err as SmtpError, { duration_ms: elapsed() }, streamed);
    } finally {
      pooled.inFlight--;
      pooled.lastUsed = Date.now();
    }
  },
};
