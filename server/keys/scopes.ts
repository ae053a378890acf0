// The scopes of the spec ("Authentication" 6). A key holds any subset; all by default.
export const SCOPES = [
  "messages:send",
  "messages:read",
  // D91: marking received messages read.
  "messages:write",
  "contacts:write",
  "contacts:read",
  "flows:enroll",
  "flows:read",
  "flows:write",
  "events:write",
  "events:read",
  "tags:write",
  "tags:read",
  "fields:write",
  "fields:read",
  "webhooks:write",
  "webhooks:read",
  // D92: the workspace's channels and their senders' DNS.
  "channels:read",
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * A key made with all scopes stores this one marker instead of the list of the day: it holds
 * every scope, including those a later release adds. A key made with chosen scopes keeps
 * exactly those (docs/api-platform.md, "Scopes").
 */
export const ALL_SCOPES = "*";

/** Whether a key's stored scopes allow `scope`. */
export function grants(scopes: readonly string[], scope: string): boolean {
  return scopes.includes(ALL_SCOPES) || scopes.includes(scope);
}

/** Whether a key's stored scopes are "all scopes" (the marker). */
export function hasAllScopes(scopes: readonly string[]): boolean {
  return scopes.includes(ALL_SCOPES);
}

export const MODES = ["test", "live"] as const;
export type Mode = (typeof MODES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
