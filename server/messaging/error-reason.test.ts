import { describe, expect, it } from "vitest";
import { errorReason } from "./error-reason.ts";

describe("errorReason", () => {
  it("explains Meta's codes, SMTP replies and our own codes", () => {
    expect(errorReason("131047")).toContain("only a template can be sent");
    expect(errorReason("131047")).toContain("WhatsApp 131047");
    expect(errorReason("smtp_550")).toBe("The receiving mail server refused the e-mail for good (SMTP 550).");
    expect(errorReason("smtp_421")).toContain("for now");
    expect(errorReason("simulated_failure")).toContain("simulated");
  });
  it("says nothing of codes it does not know", () => {
    expect(errorReason(null)).toBeNull();
    expect(errorReason("999999")).toBeNull();
    expect(errorReason("something_else")).toBeNull();
  });
});
