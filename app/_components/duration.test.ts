import { describe, expect, it } from "vitest";
import { isoDurationWords, msWords } from "./duration.ts";

describe("durations in words", () => {
  it("reads ISO 8601 durations", () => {
    expect(isoDurationWords("PT5M")).toBe("5 minutes");
    expect(isoDurationWords("PT1H")).toBe("1 hour");
    expect(isoDurationWords("P1DT2H30M")).toBe("1 day 2 hours 30 minutes");
    expect(isoDurationWords("P2W")).toBe("2 weeks");
    expect(isoDurationWords("PT0S")).toBe("no time");
    expect(isoDurationWords("soon")).toBe("soon");
    expect(isoDurationWords("PT")).toBe("PT");
  });
  it("reads milliseconds", () => {
    expect(msWords(300_000)).toBe("5 minutes");
    expect(msWords(5_400_000)).toBe("1 hour 30 minutes");
    expect(msWords(12_345)).toBe("12 seconds");
    expect(msWords(200)).toBe("less than a second");
  });
});
