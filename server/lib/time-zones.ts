import { TZDate } from "@date-fns/tz";
import { getCountry, getTimezone } from "countries-and-timezones";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { z } from "zod";

// D65: time zones and quiet hours. Zone names are checked against the IANA table that
// countries-and-timezones keeps (canonical names, their aliases and `UTC`), which also gives a
// country's zones; local times are computed by @date-fns/tz on the runtime's tz data, so
// daylight-saving changes are the zone's own.

/** A zone name of the IANA table that this runtime can compute with. */
export function isTimeZone(name: string): boolean {
  if (!getTimezone(name)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const ZTimeZone = z
  .string()
  .max(64)
  .refine(isTimeZone, "must be an IANA time zone name such as America/Sao_Paulo or Europe/Lisbon")
  .describe("An IANA time zone name.")
  .meta({ example: "America/Sao_Paulo" });

/** The zone of an E.164 number's country when that country has exactly one zone; else null. */
export function phoneTimeZone(phone: string | null): string | null {
  if (!phone) return null;
  const country = parsePhoneNumberFromString(phone)?.country;
  const zones = country ? getCountry(country)?.timezones : undefined;
  return zones?.length === 1 ? zones[0]! : null;
}

/** D65: the contact's own zone, else its phone country's single zone, else the workspace's. */
export function contactTimeZone(contact: { time_zone: string | null; phone: string | null }, workspaceZone: string): string {
  return contact.time_zone ?? phoneTimeZone(contact.phone) ?? workspaceZone;
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Quiet hours: local times `HH:MM`; `start` after `end` wraps midnight. */
export const ZQuietHours = z
  .strictObject({
    start: z.string().regex(HH_MM, "must be a local time HH:MM, 00:00 to 23:59").meta({ example: "21:00" }),
    end: z.string().regex(HH_MM, "must be a local time HH:MM, 00:00 to 23:59").meta({ example: "08:00" }),
  })
  .refine((q) => q.start !== q.end, { path: ["end"], message: "must differ from start" })
  .describe("Local times in the contact's zone during which a send step waits; `start` after `end` wraps midnight.");
export type QuietHours = z.infer<typeof ZQuietHours>;

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * When the quiet hours around `now` end in `zone`, or null when `now` is outside them. The end
 * is the next local `end` time on the zone's own calendar, so a night that crosses a
 * daylight-saving change ends at the right local time (a local time that the change skips
 * is read as the instant after the gap).
 */
export function quietHoursEnd(hours: QuietHours, zone: string, now: Date): Date | null {
  const local = new TZDate(now.getTime(), zone);
  const m = local.getHours() * 60 + local.getMinutes();
  const start = minutes(hours.start);
  const end = minutes(hours.end);
  const inside = start < end ? m >= start && m < end : m >= start || m < end;
  if (!inside) return null;
  // The end is today's local `end` when that is still ahead, else tomorrow's.
  const dayOffset = m < end ? 0 : 1;
  const until = new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + dayOffset, Math.floor(end / 60), end % 60, zone);
  // A night that ends in the hour a change to winter time repeats ends at the repeated `end`.
  const shift = local.getTimezoneOffset() - until.getTimezoneOffset();
  return new Date(until.getTime() + (until.getTime() <= now.getTime() ? shift * 60_000 : 0));
}

/**
 * The clock of the quiet-hours computation: the real one, or (a test hook, docs/flows.md) one
 * that read `TIME_ZONE_CLOCK` when the process started and runs at the real clock's pace.
 */
const clockOffsetMs = (() => {
  const start = process.env.TIME_ZONE_CLOCK;
  return start ? Date.parse(start) - Date.now() : 0;
})();

/**
 * D65: whether a send due `now` falls in the quiet hours of `zone`: when they end (`until`, on
 * the quiet-hours clock) and when the send is then due (`due`, on the real clock), or null.
 */
export function quietHold(hours: QuietHours, zone: string, now: Date): { until: Date; due: Date } | null {
  const local = new Date(now.getTime() + clockOffsetMs);
  const until = quietHoursEnd(hours, zone, local);
  return until ? { until, due: new Date(now.getTime() + until.getTime() - local.getTime()) } : null;
}
