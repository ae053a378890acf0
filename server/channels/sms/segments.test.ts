import { describe, expect, it } from "vitest";
import { nonGsm7Characters, smsSegments } from "./segments.ts";

// D97: encoding and segments of a rendered sms body.

describe("GSM-7", () => {
  it("fits 160 characters in one segment", () => {
    expect(smsSegments("a".repeat(160))).toEqual({ encoding: "GSM-7", units: 160, segments: 1 });
  });

  it("splits 161 characters into two parts of at most 153", () => {
    expect(smsSegments("a".repeat(161))).toEqual({ encoding: "GSM-7", units: 161, segments: 2 });
    expect(smsSegments("a".repeat(306)).segments).toBe(2);
    expect(smsSegments("a".repeat(307)).segments).toBe(3);
  });

  it("keeps every character of the basic table in GSM-7, one unit each", () => {
    const basic =
      "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
    expect([...basic]).toHaveLength(127);
    expect(smsSegments(basic)).toEqual({ encoding: "GSM-7", units: 127, segments: 1 });
  });

  it("counts an extension character two, so one at the boundary makes a second segment", () => {
    expect(smsSegments("€")).toEqual({ encoding: "GSM-7", units: 2, segments: 1 });
    expect(smsSegments("^{}\\[~]|€\f")).toEqual({ encoding: "GSM-7", units: 20, segments: 1 });
    expect(smsSegments(`${"a".repeat(158)}€`)).toEqual({ encoding: "GSM-7", units: 160, segments: 1 });
    expect(smsSegments(`${"a".repeat(159)}€`)).toEqual({ encoding: "GSM-7", units: 161, segments: 2 });
  });

  it("gives an empty body one GSM-7 segment (1 up to 160 units)", () => {
    expect(smsSegments("")).toEqual({ encoding: "GSM-7", units: 0, segments: 1 });
  });
});

describe("UCS-2", () => {
  it("switches the whole body to UCS-2 for one character outside both tables", () => {
    // ç (lower case) and the backtick are not in GSM 03.38; Ç is.
    expect(smsSegments("Olá, você").encoding).toBe("UCS-2");
    expect(smsSegments("ç").encoding).toBe("UCS-2");
    expect(smsSegments("`").encoding).toBe("UCS-2");
    expect(smsSegments("Ç").encoding).toBe("GSM-7");
  });

  it("fits 70 characters in one segment and splits 71 into parts of at most 67", () => {
    expect(smsSegments("ж".repeat(70))).toEqual({ encoding: "UCS-2", units: 70, segments: 1 });
    expect(smsSegments("ж".repeat(71))).toEqual({ encoding: "UCS-2", units: 71, segments: 2 });
    expect(smsSegments("ж".repeat(134)).segments).toBe(2);
    expect(smsSegments("ж".repeat(135)).segments).toBe(3);
  });

  it("counts an emoji (outside the Basic Multilingual Plane) two", () => {
    expect(smsSegments("😀")).toEqual({ encoding: "UCS-2", units: 2, segments: 1 });
    expect(smsSegments(`${"a".repeat(68)}😀`)).toEqual({ encoding: "UCS-2", units: 70, segments: 1 });
    expect(smsSegments(`${"a".repeat(69)}😀`)).toEqual({ encoding: "UCS-2", units: 71, segments: 2 });
  });

  it("counts an extension character one in UCS-2 (no escape there)", () => {
    expect(smsSegments("€ж")).toEqual({ encoding: "UCS-2", units: 2, segments: 1 });
  });
});

describe("the characters that make UCS-2", () => {
  it("names each character outside GSM 03.38 once, and none of the basic or extension tables", () => {
    expect(nonGsm7Characters("Voilà € {x} [ok]")).toEqual([]);
    expect(nonGsm7Characters("Olá")).toEqual(["á"]);
    expect(nonGsm7Characters("Ça coûte 5 € 🎉 — coûte 🎉")).toEqual(["û", "🎉", "—"]);
  });
});
