// The scopes of the spec ("Authentication" 6). A key holds any subset; all by default.
export const SCOPES = [
  "messages:send",
  "messages:read",
  "contacts:write",
  "contacts:read",
  "flows:enroll",
  "flows:read",
  "events:write",
  "events:read",
  "tags:write",
  "tags:read",
  "fields:write",
  "fields:read",
  "webhooks:write",
  "webhooks:read",
] as const;

export type Scope = (typeof SCOPES)[number];

export const MODES = ["test", "live"] as const;
export type Mode = (typeof MODES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
