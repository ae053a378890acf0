import { describe, expect, it } from "vitest";
import { contactTimeZone, isTimeZone, phoneTimeZone, quietHoursEnd, ZQuietHours } from "./time-zones.ts";

// D65: zones and quiet hours, with the clock given to the computation (never a sleep).
const night = { start: "21:00", end: "08:00" };
const at = (iso: string) => new Date(iso);

describe("time zones (D65)", () => {
  it("knows IANA names, aliases and UTC, and refuses the rest", () => {
    for (const zone of ["America/Sao_Paulo", "Europe/Lisbon", "UTC", "Asia/Kolkata", "US/Eastern"]) expect(isTimeZone(zone)).toBe(true);
    for (const zone of ["Mars/Base", "+01:00", "", "america/sao_paulo"]) expect(isTimeZone(zone)).toBe(false);
  });

  it("gives a phone number's zone when its country has one, and falls back to the workspace's", () => {
    expect(phoneTimeZone("+6561234567")).toBe("Asia/Singapore");
    expect(phoneTimeZone("+351912345678")).toBeNull(); // Portugal: Lisbon, Madeira, Azores
    expect(phoneTimeZone("+5511987654321")).toBeNull(); // Brazil has several
    expect(contactTimeZone({ time_zone: "Europe/Paris", phone: "+6561234567" }, "UTC")).toBe("Europe/Paris");
    expect(contactTimeZone({ time_zone: null, phone: "+6561234567" }, "UTC")).toBe("Asia/Singapore");
    expect(contactTimeZone({ time_zone: null, phone: "+5511987654321" }, "America/Sao_Paulo")).toBe("America/Sao_Paulo");
    expect(contactTimeZone({ time_zone: null, phone: null }, "UTC")).toBe("UTC");
  });

  it("refuses quiet hours with bad times", () => {
    expect(ZQuietHours.safeParse({ start: "24:00", end: "08:00" }).success).toBe(false);
    expect(ZQuietHours.safeParse({ start: "9:00", end: "08:00" }).success).toBe(false);
    expect(ZQuietHours.safeParse({ start: "08:00", end: "08:00" }).success).toBe(false);
    expect(ZQuietHours.safeParse({ start: "21:00", end: "08:00", x: 1 }).success).toBe(false);
  });
});

describe("quiet hours (D65)", () => {
  it("is null outside the hours, wrapping midnight or not", () => {
    expect(quietHoursEnd(night, "UTC", at("2027-01-10T12:00:00Z"))).toBeNull();
    expect(quietHoursEnd(night, "UTC", at("2027-01-10T08:00:00Z"))).toBeNull();
    expect(quietHoursEnd({ start: "12:00", end: "14:00" }, "UTC", at("2027-01-10T11:59:00Z"))).toBeNull();
    expect(quietHoursEnd({ start: "12:00", end: "14:00" }, "UTC", at("2027-01-10T13:00:00Z"))).toEqual(at("2027-01-10T14:00:00Z"));
  });

  it("ends at the local end time of the same night, before or after midnight", () => {
    // São Paulo is UTC-3 all year.
    expect(quietHoursEnd(night, "America/Sao_Paulo", at("2027-01-10T01:00:00Z"))).toEqual(at("2027-01-10T11:00:00Z"));
    expect(quietHoursEnd(night, "America/Sao_Paulo", at("2027-01-10T05:00:00Z"))).toEqual(at("2027-01-10T11:00:00Z"));
    expect(quietHoursEnd(night, "America/Sao_Paulo", at("2027-01-11T00:30:00Z"))).toEqual(at("2027-01-11T11:00:00Z"));
  });

  it("ends at 08:00 local across the change to summer time and back", () => {
    // New York, 13 March 2027 21:30 EST: the night crosses 2:00 EST -> 3:00 EDT; 08:00 EDT is 12:00 UTC, not 13:00.
    expect(quietHoursEnd(night, "America/New_York", at("2027-03-14T02:30:00Z"))).toEqual(at("2027-03-14T12:00:00Z"));
    // 31 October 2026 23:00 EDT: the night crosses 2:00 EDT -> 1:00 EST; 08:00 EST is 13:00 UTC.
    expect(quietHoursEnd(night, "America/New_York", at("2026-11-01T03:00:00Z"))).toEqual(at("2026-11-01T13:00:00Z"));
    // Lisbon, 28 March 2027 00:30 WET: 08:00 WEST is 07:00 UTC.
    expect(quietHoursEnd(night, "Europe/Lisbon", at("2027-03-28T00:30:00Z"))).toEqual(at("2027-03-28T07:00:00Z"));
  });

  it("reads an end the change skips as the instant after the gap, and a repeated one at its second time", () => {
    // 02:30 does not exist in New York on 14 March 2027: the hours end at 03:30 EDT (07:30 UTC).
    expect(quietHoursEnd({ start: "00:00", end: "02:30" }, "America/New_York", at("2027-03-14T06:00:00Z"))).toEqual(
      at("2027-03-14T07:30:00Z"),
    );
    // 01:10 EST on 1 November 2026 (after 01:59 EDT came back to 01:00): 01:30 EST is 06:30 UTC.
    expect(quietHoursEnd({ start: "00:00", end: "01:30" }, "America/New_York", at("2026-11-01T06:10:00Z"))).toEqual(
      at("2026-11-01T06:30:00Z"),
    );
  });
});
