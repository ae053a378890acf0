import { describe, expect, it } from "vitest";
import { fieldGroups, readReport } from "./bounce-report.ts";

// D73: DSNs (RFC 3464) and ARF reports (RFC 5965) as mail servers write them, read with mailparser.
const report = (type: string, part: string, body: string) =>
  Buffer.from(
    [
      "From: MAILER-DAEMON@mx.example.net",
      "To: bounces+msg_1@bounces.example.com",
      "MIME-Version: 1.0",
      `Content-Type: multipart/report; report-type=${type}; boundary="b"`,
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "Status: 5.1.1 in the human part must not count",
      "--b",
      `Content-Type: ${part}`,
      "",
      body,
      "--b--",
      "",
    ].join("\r\n"),
  );

describe("readReport", () => {
  it("reads a permanent failure with its diagnostic and SMTP code", async () => {
    const dsn =
      "Reporting-MTA: dns; mx\r\n\r\nFinal-Recipient: rfc822; a@b.example\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1\r\n  User unknown\r\n";
    expect(await readReport(report("delivery-status", "message/delivery-status", dsn))).toEqual({
      kind: "bounce",
      permanent: true,
      status: "5.1.1",
      diagnostic: "550 5.1.1 User unknown",
      smtpCode: 550,
    });
  });

  it("reads a delay as temporary, and a 4.x.x failure as temporary too", async () => {
    const delayed = "Reporting-MTA: dns; mx\r\n\r\nAction: delayed\r\nStatus: 4.2.2\r\n";
    expect(await readReport(report("delivery-status", "message/delivery-status", delayed))).toMatchObject({ permanent: false });
    const failed4 = "Reporting-MTA: dns; mx\r\n\r\nAction: failed\r\nStatus: 4.4.7\r\n";
    expect(await readReport(report("delivery-status", "message/delivery-status", failed4))).toMatchObject({ permanent: false });
  });

  it("reads a complaint's feedback type", async () => {
    const arf = "Feedback-Type: abuse\r\nUser-Agent: x/1\r\nVersion: 1\r\n";
    expect(await readReport(report("feedback-report", "message/feedback-report", arf))).toEqual({
      kind: "complaint",
      feedbackType: "abuse",
    });
  });

  it("answers null for anything else: plain mail, a report without its part, a DSN without a status", async () => {
    expect(await readReport(Buffer.from("Subject: hi\r\n\r\nhello\r\n"))).toBeNull();
    expect(await readReport(report("delivery-status", "text/plain", "Action: failed\r\nStatus: 5.1.1\r\n"))).toBeNull();
    expect(
      await readReport(report("delivery-status", "message/delivery-status", "Reporting-MTA: dns; mx\r\n\r\nAction: failed\r\n")),
    ).toBeNull();
    expect(await readReport(report("feedback-report", "message/feedback-report", "Version: 1\r\n"))).toBeNull();
    expect(await readReport(Buffer.from([0xff, 0xfe, 0x00, 0x01]))).toBeNull();
  });
});

describe("fieldGroups", () => {
  it("folds continuation lines and keeps the first of a repeated field", () => {
    expect(fieldGroups("A: 1\r\n  more\r\nA: 2\r\n\r\nB: 3").map((g) => Object.fromEntries(g))).toEqual([{ a: "1 more" }, { b: "3" }]);
  });
});
