import { describe, expect, it } from "vitest";
import { decorateHtml, htmlToText } from "./email-html.ts";
import { mapSmtpError } from "./smtp.ts";

const links = {
  openUrl: "https://t.example.com/api/providers/email/open/msg_1.sig",
  unsubscribeUrl: "https://t.example.com/api/providers/email/unsubscribe/msg_1.sig",
};

describe("decorateHtml", () => {
  it("appends the unsubscribe footer and the tracking image to a fragment", () => {
    const html = decorateHtml("<p>Hello</p>", links);
    expect(html.startsWith("<p>Hello</p>")).toBe(true);
    expect(html).toContain(`<a href="${links.unsubscribeUrl}"`);
    expect(html.endsWith(`<img src="${links.openUrl}" width="1" height="1" alt="">`)).toBe(true);
  });

  it("puts the preheader first and the additions inside <body> of a full document", () => {
    const html = decorateHtml('<html><head><title>x</title></head><body class="b"><p>Hi</p></body></html>', links, "Your <code> inside");
    expect(html).toMatch(
      /^<html><head><title>x<\/title><\/head><body class="b"><span style="display:none[^"]*">Your &lt;code&gt; inside<\/span><p>Hi<\/p>/,
    );
    expect(html).toMatch(/Unsubscribe<\/a>\.<\/p><img src="[^"]+" width="1" height="1" alt=""><\/body><\/html>$/);
  });
});

describe("htmlToText", () => {
  it("keeps the words, links and structure, drops styles, scripts and the preheader", () => {
    const html = decorateHtml(
      '<style>p{color:red}</style><h1>Welcome&nbsp;Ana</h1><p>Your order <b>#42</b> ships today.<br>Track it <a href="https://shop.example.com/t?a=1&amp;b=2">here</a>.</p><ul><li>One</li><li>Two &amp; three</li></ul><script>alert(1)</script>',
      links,
      "Preview only",
    );
    expect(htmlToText(html)).toBe(
      [
        "Welcome Ana",
        "",
        "Your order #42 ships today.",
        "Track it here (https://shop.example.com/t?a=1&b=2).",
        "",
        "- One",
        "- Two & three",
        "",
        `Don't want these e-mails? Unsubscribe (${links.unsubscribeUrl}).`,
      ].join("\n"),
    );
  });

  it("decodes numeric entities and writes a bare link once", () => {
    expect(htmlToText('<p>&#8364;5 &#x263A; <a href="https://a.example">https://a.example</a></p>')).toBe("€5 ☺ https://a.example");
  });
});

describe("mapSmtpError (D39)", () => {
  it("5xx is permanent with the server's reply", () => {
    expect(
      mapSmtpError(
        Object.assign(new Error("Can't send mail"), { code: "EENVELOPE", responseCode: 550, response: "550 5.1.1 No such user" }),
        {},
        false,
      ),
    ).toEqual({
      outcome: "permanent",
      error: "550 5.1.1 No such user",
      detail: { status_code: 550, excerpt: "550 5.1.1 No such user" },
      errorCode: "smtp_550", // D45
      addressRejected: false, // D73: no command named, so nothing says it was the recipient
    });
    // D73: a 5xx to RCPT TO suppresses the recipient; one to AUTH does not.
    const rcpt = Object.assign(new Error("Can't send mail"), { responseCode: 550, response: "550 5.1.1 No such user", command: "RCPT TO" });
    expect(mapSmtpError(rcpt, {}, false)).toMatchObject({ outcome: "permanent", addressRejected: true });
    const auth = Object.assign(new Error("Invalid login"), {
      responseCode: 535,
      response: "535 5.7.8 Bad credentials",
      command: "AUTH PLAIN",
    });
    expect(mapSmtpError(auth, {}, false)).toMatchObject({ outcome: "permanent", addressRejected: false });
  });

  it("4xx, and refused connections and timeouts before the whole message was sent, are temporary", () => {
    const greylisted = Object.assign(new Error("x"), { responseCode: 451, response: "451 4.7.1 Greylisted" });
    // A 4xx reply refuses the message, after its end too.
    for (const streamed of [false, true])
      expect(mapSmtpError(greylisted, {}, streamed)).toMatchObject({ outcome: "temporary", error: "451 4.7.1 Greylisted" });
    expect(mapSmtpError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNECTION" }), {}, false)).toMatchObject({
      outcome: "temporary",
      error: /connection failed/,
    });
    expect(mapSmtpError(Object.assign(new Error("Connection timeout"), { code: "ETIMEDOUT" }), {}, false)).toMatchObject({
      outcome: "temporary",
      error: /timed out/,
    });
  });

  it("no reply after the whole message was sent is unknown: the relay may have taken it (D47)", () => {
    expect(mapSmtpError(Object.assign(new Error("Timeout"), { code: "ETIMEDOUT" }), {}, true)).toMatchObject({
      outcome: "unknown",
      error: /timed out after the whole message was sent/,
    });
  });
});
