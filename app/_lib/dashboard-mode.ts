// The dashboard's test/live switch (the top bar): which mode's messages Overview, Usage and
// Messages show. Remembered per user in a cookie named after the user's id, so a colleague
// signing in on the same browser keeps their own; the server reads it to render the first
// paint in the right mode. It only chooses a view (both modes are visible to every member), so
// it needs no signature: the server accepts "live" or "test" and ignores anything else.

export const MODES = ["live", "test"] as const;
export type DashboardMode = (typeof MODES)[number];

/** A year: the choice outlasts the session (signing in again keeps it). */
export const MODE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export function modeCookieName(userId: string): string {
  return `svc-mode-${userId.replace(/[^\w-]/g, "_")}`;
}

export function parseMode(value: string | undefined): DashboardMode | null {
  return MODES.includes(value as DashboardMode) ? (value as DashboardMode) : null;
}
