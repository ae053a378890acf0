import { createServer as createTcpServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { verifyToken } from "../../server/providers/email-token.ts";
import type { ChannelConfig, OutboundMessage } from "../../server/providers/provider.ts";
import { providerFor } from "../../server/channels/server-registry.ts";
import { closeSmtpTransports } from "../../server/providers/smtp.ts";
import { parseMessage, startSmtpSink, type SmtpSink } from "../support/smtp-sink.ts";

// The SMTP client (nodemailer) against a real SMTP server on loopback (smtp-server): D39's
// outcomes and what every e-mail carries (operations.md "Provider endpoints", RFC 8058).

let sink: SmtpSink;
let channel: ChannelConfig;
const client = providerFor("email");
const TRACKING = "https://track.example.com";

let seq = 0;
const message = (content: Partial<Extract<OutboundMessage["content"], { html: string }>> = {}): OutboundMessage => ({
  id: `msg_0mwq18yo3jJFvnIzUvq${String(++seq).padStart(3, "0")}`,
  workspaceId: "acme-k3j9x2",
  contactId: "ct_1",
  to: "ana@example.com",
  content: { subject: "Your order", html: "<p>Hello <b>Ana</b></p>", ...content },
});

beforeAll(async () => {
  sink = await startSmtpSink({ auth: { user: "relay-user", pass: "p@ss word" } });
  channel = {
    id: "ch_email",
    workspaceId: "acme-k3j9x2",
    type: "email",
    externalId: "news@shop.example.com",
    settings: { from: "news@shop.example.com", tracking_base_url: TRACKING },
    secrets: { smtp_url: sink.url, events_token: "ch_email.x" },
    ratePerSecond: 10,
  };
});
afterAll(async () => {
  closeSmtpTransports();
  await sink.close();
});
beforeEach(() => sink.reset());

describe("accepted by the relay", () => {
  it("is accepted with the relay's queue id as provider id, authenticated with the URL's credentials", async () => {
    const msg = message();
    const result = await client.send(channel, msg);
    const [received] = sink.messages;
    // The sink answers as Postfix does, `250 2.0.0 Ok: queued as <id>`; the Message-ID stays in the detail.
    expect(result).toMatchObject({ outcome: "accepted", providerMessageId: received!.queueId });
    expect(result.detail).toMatchObject({
      status_code: 250,
      request_id: `<${msg.id}@shop.example.com>`,
      excerpt: `250 2.0.0 Ok: queued as ${received!.queueId}`,
    });
    expect(received).toMatchObject({ from: "news@shop.example.com", to: ["ana@example.com"], user: "relay-user" });
  });

  it("carries the tracking image, the unsubscribe link and RFC 8058 headers", async () => {
    const msg = message({ preview_text: "Shipped today", reply_to: "help@shop.example.com" });
    await client.send(channel, msg);
    const mail = await parseMessage(sink.messages[0]!);
    expect(mail.subject).toBe("Your order");
    expect(mail.from?.text).toBe("news@shop.example.com");
    expect(mail.replyTo?.text).toBe("help@shop.example.com");
    expect(mail.messageId).toBe(`<${msg.id}@shop.example.com>`);

    const html = mail.html as string;
    const open = /<img src="https:\/\/track\.example\.com\/api\/providers\/email\/open\/([^"]+)" width="1" height="1" alt="">/.exec(html);
    expect(open, html).not.toBeNull();
    expect(verifyToken(open![1]!)).toBe(msg.id);
    const unsubscribeUrl = /<a href="(https:\/\/track\.example\.com\/api\/providers\/email\/unsubscribe\/[^"]+)"/.exec(html)?.[1];
    expect(unsubscribeUrl).toBeDefined();
    expect(verifyToken(unsubscribeUrl!.split("/").pop()!)).toBe(msg.id);
    expect(html).toMatch(/^<span style="display:none[^"]*">Shipped today<\/span><p>Hello <b>Ana<\/b><\/p>/);

    // mailparser reads the List-* headers into `list` (RFC 2369, RFC 8058).
    expect(mail.headers.get("list")).toEqual({
      unsubscribe: { url: unsubscribeUrl },
      "unsubscribe-post": { name: "List-Unsubscribe=One-Click" },
    });
    const unfolded = `\r\n${sink.messages[0]!.raw}`.replace(/\r\n(?=[ \t])/g, "");
    expect(unfolded).toContain(`\r\nList-Unsubscribe: <${unsubscribeUrl}>\r\n`);
    expect(unfolded).toContain("\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");

    expect(mail.text).toContain("Hello Ana");
    expect(mail.text).toContain(`Unsubscribe (${unsubscribeUrl})`);
    expect(mail.text).not.toContain("Shipped today");
  });

  it("uses APP_URL when the channel has no tracking base", async () => {
    const { tracking_base_url: _, ...settings } = channel.settings;
    await client.send({ ...channel, settings }, message());
    const mail = await parseMessage(sink.messages[0]!);
    expect(mail.html).toContain(`${process.env.APP_URL ?? "http://localhost:3000"}/api/providers/email/open/`);
  });

  it("reuses one pooled transport for the channel", async () => {
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map(() => client.send(channel, message())));
    expect(results.map((r) => r.outcome)).toEqual(Array(6).fill("accepted"));
    expect(sink.messages).toHaveLength(6);
  });
});

describe("refused (D39)", () => {
  it("a 5xx reply to the recipient is permanent, with the server's reply as error", async () => {
    sink.reject(550, { at: "rcpt", message: "5.1.1 <ana@example.com>: Recipient address rejected" });
    const result = await client.send(channel, message());
    expect(result).toMatchObject({
      outcome: "permanent",
      error: expect.stringContaining("550 5.1.1 <ana@example.com>: Recipient address rejected"),
      detail: { status_code: 550 },
    });
  });

  it("a 5xx reply to the data is permanent", async () => {
    sink.reject(554, { message: "5.7.1 Message rejected as spam" });
    expect(await client.send(channel, message())).toMatchObject({
      outcome: "permanent",
      error: expect.stringContaining("554 5.7.1 Message rejected as spam"),
    });
  });

  it("a 4xx reply is temporary", async () => {
    sink.reject(451, { message: "4.7.1 Greylisted, try again later" });
    expect(await client.send(channel, message())).toMatchObject({
      outcome: "temporary",
      error: expect.stringContaining("451 4.7.1 Greylisted"),
    });
    sink.reject(null);
    expect((await client.send(channel, message())).outcome).toBe("accepted");
  });

  it("wrong credentials (535) are permanent", async () => {
    const url = new URL(sink.url);
    url.password = "wrong";
    const result = await client.send({ ...channel, id: "ch_email_badauth", secrets: { smtp_url: url.toString() } }, message());
    expect(result).toMatchObject({ outcome: "permanent", detail: { status_code: 535 } });
  });

  it("a refused connection is temporary", async () => {
    const closed = await startSmtpSink();
    await closed.close();
    const result = await client.send({ ...channel, id: "ch_email_closed", secrets: { smtp_url: closed.url } }, message());
    expect(result).toMatchObject({ outcome: "temporary", error: expect.stringMatching(/ECONNREFUSED|connection/i) });
  });
});

/**
 * A relay speaking just enough SMTP to take a message, whose connection then dies at `dropAt`:
 * on the DATA command (the message not yet sent), or once the message's final "." arrived
 * (it may have been taken, and no reply came). Counts the messages whose end it received.
 */
async function dyingRelay(dropAt: "data" | "end"): Promise<{ url: string; ended: () => number; close: () => Promise<void> }> {
  let ended = 0;
  const server = createTcpServer((socket) => {
    let inData = false;
    let buffer = "";
    socket.write("220 relay.test ESMTP\r\n");
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("latin1");
      if (inData) {
        if (!buffer.includes("\r\n.\r\n")) return;
        ended++;
        socket.destroy();
        return;
      }
      let line: number;
      while ((line = buffer.indexOf("\r\n")) >= 0) {
        const command = buffer.slice(0, line).toUpperCase();
        buffer = buffer.slice(line + 2);
        if (command.startsWith("EHLO")) socket.write("250-relay.test\r\n250 8BITMIME\r\n");
        else if (command === "DATA" && dropAt === "data") return void socket.destroy();
        else if (command === "DATA") {
          inData = true;
          return void socket.write("354 go ahead\r\n");
        } else if (command === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, ended: () => ended, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("no reply (D47)", () => {
  it("a connection lost after the whole message was sent has an unknown outcome, and the message went once", async () => {
    const relay = await dyingRelay("end");
    try {
      const result = await client.send({ ...channel, id: "ch_email_dies_at_end", secrets: { smtp_url: relay.url } }, message());
      expect(result).toMatchObject({ outcome: "unknown", error: /after the whole message was sent/ });
      // nodemailer's pool does not send it again on another connection.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(relay.ended()).toBe(1);
    } finally {
      await relay.close();
    }
  });

  it("a connection lost before the message was sent is temporary: the relay cannot have taken it", async () => {
    const relay = await dyingRelay("data");
    try {
      const result = await client.send({ ...channel, id: "ch_email_dies_at_data", secrets: { smtp_url: relay.url } }, message());
      expect(result).toMatchObject({ outcome: "temporary" });
      expect(relay.ended()).toBe(0);
    } finally {
      await relay.close();
    }
  });
});
