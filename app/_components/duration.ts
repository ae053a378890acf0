// Durations as people say them: "5 minutes", "1 hour 30 minutes", "2 days".

const UNITS: [string, number][] = [
  ["week", 7 * 24 * 3600_000],
  ["day", 24 * 3600_000],
  ["hour", 3600_000],
  ["minute", 60_000],
  ["second", 1000],
];

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** A number of milliseconds in words, its two largest units at most ("1 hour 30 minutes"); under a second, "less than a second". */
export function msWords(ms: number): string {
  let left = Math.max(0, Math.round(ms));
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    if (left >= size) {
      parts.push(plural(Math.floor(left / size), unit));
      left %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.length ? parts.join(" ") : "less than a second";
}

const ISO = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * An ISO 8601 duration of a wait step (D37) in words: "PT5M" is "5 minutes", "P1DT2H" is
 * "1 day 2 hours". Anything else comes back as it is (the editor flags it on save).
 */
export function isoDurationWords(duration: string): string {
  const m = ISO.exec(duration.trim().toUpperCase());
  if (!m || duration.trim().toUpperCase() === "P" || duration.trim().toUpperCase().endsWith("T")) return duration;
  const names = ["year", "month", "week", "day", "hour", "minute", "second"];
  const parts = m
    .slice(1)
    .map((v, i) => (v && Number(v) > 0 ? plural(Number(v), names[i]!) : null))
    .filter((p): p is string => p !== null);
  return parts.length ? parts.join(" ") : "no time";
}
