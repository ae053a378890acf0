import { optionalString, UsageError, type Values } from "./command.ts";

// What the commands that talk to the API rather than the database share (`svc listen`, `svc
// trigger`): the service's URL and a test key from flags or the environment, and an API
// refusal as one clear message.

export const DEFAULT_API_URL = "http://localhost:3000";

export const API_FLAGS = {
  "api-url": { type: "string" },
  "api-key": { type: "string" },
} as const;

export function apiHelp(scope: string): [string, string][] {
  return [
    ["--api-url URL", `the service's URL, with or without /api/v1 (or SVC_API_URL; default ${DEFAULT_API_URL})`],
    ["--api-key KEY", `a test key with the scope ${scope} (or SVC_API_KEY)`],
  ];
}

/** The service's origin as given, with or without a trailing `/api/v1`, to the API's base. */
export function apiBase(given: string): string {
  const origin = given
    .trim()
    .replace(/\/+$/, "")
    .replace(/\/api\/v1$/, "");
  return `${origin}/api/v1`;
}

/** The API's base and the key, from `--api-url`/`--api-key` or `SVC_API_URL`/`SVC_API_KEY`. */
export function apiTarget(values: Values, scope: string): { base: string; key: string } {
  const key = optionalString(values, "api-key") ?? process.env.SVC_API_KEY;
  if (!key) throw new UsageError(`--api-key (or SVC_API_KEY) is required: a test key with the scope ${scope}.`);
  return { base: apiBase(optionalString(values, "api-url") ?? process.env.SVC_API_URL ?? DEFAULT_API_URL), key };
}

/** A refusal of the API as `the API answered <status>: <its message>`. */
export async function apiRefusal(response: Response): Promise<Error> {
  const text = await response.text().catch(() => "");
  let message = text;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    // not JSON
  }
  return new Error(`the API answered ${response.status}: ${message}`);
}
