import { inject } from "vitest";
import { FIXTURE_ADMIN } from "./fixtures.ts";
import { signIn as signInAs } from "./sign-in.ts";

// The dashboard's own API (tRPC over /api/trpc, next-auth session cookie), used by the API
// tests to read what the public API does not expose (a contact's event history) on both
// engines through the real server.

let session: Promise<string> | undefined;

/** Signs the fixture admin in through next-auth's credentials flow; returns the cookie header. */
export function signIn(baseUrl: string): Promise<string> {
  return signInAs(baseUrl, FIXTURE_ADMIN.email, FIXTURE_ADMIN.password);
}

export async function dashboardQuery<T>(workspaceId: string, path: string, input: unknown): Promise<T> {
  const { baseUrl } = inject("api");
  session ??= signIn(baseUrl);
  // No input is no `input` parameter, as tRPC's own client sends it (every procedure's input is parsed now).
  const search = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await fetch(`${baseUrl}/api/trpc/${path}${search}`, {
    headers: { Cookie: await session, "x-svc-workspace": workspaceId },
  });
  const body = (await res.json()) as { result?: { data: T }; error?: unknown };
  if (!res.ok || !body.result) throw new Error(`${path}: ${res.status} ${JSON.stringify(body.error)}`);
  return body.result.data;
}

export async function dashboardMutation<T>(workspaceId: string, path: string, input: unknown): Promise<T> {
  const { baseUrl } = inject("api");
  session ??= signIn(baseUrl);
  const res = await fetch(`${baseUrl}/api/trpc/${path}`, {
    method: "POST",
    headers: { Cookie: await session, "x-svc-workspace": workspaceId, "Content-Type": "application/json" },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { result?: { data: T }; error?: unknown };
  if (!res.ok || !body.result) throw new Error(`${path}: ${res.status} ${JSON.stringify(body.error)}`);
  return body.result.data;
}
