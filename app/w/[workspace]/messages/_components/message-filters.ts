import { CHANNEL_TYPES } from "@/app/_channels/channel-words.ts";
import type { Message } from "@/server/messaging/message-schemas.ts";
import { STATUSES, type MessageStatus } from "./message-labels.tsx";

/**
 * The inspector's search and filters as they stand in the page's URL
 * (`?q=…&status=…&channel=…&from=YYYY-MM-DD&to=YYYY-MM-DD`), so a search survives
 * opening a message and coming back, and can be shared. The mode is not one of them: the top
 * bar's test/live switch sets it for every page (app/_components/mode-switch.tsx).
 */
export type Filters = {
  q: string;
  status: MessageStatus | "";
  channel: Message["channel"] | "";
  /** First day, inclusive, in the reader's time zone. */
  from: string;
  /** Last day, inclusive, in the reader's time zone. */
  to: string;
};

export const FILTER_KEYS = ["q", "status", "channel", "from", "to"] as const;

/** The filters behind the Filters button (the search stays in view). */
export const PANEL_KEYS = ["status", "channel", "from", "to"] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | "" {
  return allowed.includes(value as T) ? (value as T) : "";
}

export function readFilters(params: URLSearchParams): Filters {
  const day = (key: string) => {
    const value = params.get(key) ?? "";
    return DAY.test(value) ? value : "";
  };
  return {
    q: (params.get("q") ?? "").slice(0, 200),
    status: oneOf(params.get("status"), STATUSES),
    channel: oneOf(params.get("channel"), CHANNEL_TYPES),
    from: day("from"),
    to: day("to"),
  };
}

export function filtersQuery(filters: Filters): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) if (filters[key]) params.set(key, filters[key]);
  return params.toString();
}

/**
 * What the search box means: a message id, a provider message id, an e-mail address or a
 * phone number, each matched whole (the server normalizes phones as sends do and compares
 * e-mail in any case). A phone written with spaces, dashes, dots or parentheses is reduced
 * to its digits (and leading +) here already.
 */
export function searchText(q: string): string {
  const text = q.trim();
  if (/^\+?[\d\s().-]+$/.test(text) && /\d/.test(text)) return text.replace(/[\s().-]/g, "");
  return text;
}

/** Midnight starting a day in the reader's time zone, as the ISO instant the server compares. */
function startOfDay(day: string, plusDays = 0): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + plusDays).toISOString();
}

/** The input of `messages.search` for these filters in `mode` (the date range's end is exclusive there). */
export function searchInput(filters: Filters, mode: "live" | "test") {
  const q = searchText(filters.q);
  return {
    mode,
    ...(q ? { q } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.channel ? { channel: filters.channel } : {}),
    ...(filters.from ? { from: startOfDay(filters.from) } : {}),
    ...(filters.to ? { to: startOfDay(filters.to, 1) } : {}),
  };
}
