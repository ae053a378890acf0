import { describe, expect, it } from "vitest";
import { smsKeyword } from "./opt-out.ts";

// D96: opt-out and opt-in words of an inbound sms.

describe("smsKeyword", () => {
  it.each(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT"])("%s opts out", (word) => {
    expect(smsKeyword(word)).toBe("opt_out");
  });

  it.each(["START", "YES", "UNSTOP"])("%s opts in", (word) => {
    expect(smsKeyword(word)).toBe("opt_in");
  });

  it("reads any case, trimmed", () => {
    expect(smsKeyword("stop")).toBe("opt_out");
    expect(smsKeyword("  Stop\n")).toBe("opt_out");
    expect(smsKeyword("\tuNsToP ")).toBe("opt_in");
    expect(smsKeyword("yes")).toBe("opt_in");
  });

  it("takes the exact body only", () => {
    for (const body of ["STOP please", "stop.", "STOP!", "S T O P", "don't stop", "HELP", "INFO", "", "  ", "STOPP", "NO"]) {
      expect(smsKeyword(body), body).toBeNull();
    }
  });

  it("does not fold letters outside ASCII into a keyword", () => {
    // "ſ".toUpperCase() is "S" and "ı".toUpperCase() is "I".
    expect(smsKeyword("ſtop")).toBeNull();
    expect(smsKeyword("quıt")).toBeNull();
  });
});
