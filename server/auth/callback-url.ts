// Where the dashboard sends a user after signing in (`callbackUrl`): only a page of this site.
// One rule for every door that follows it: the sign-in page's redirect of a signed-in user and
// its form after sign-in (app/sign-in/page.tsx), and next-auth's own redirects (options.ts).
// Browsers drop TAB, CR and LF anywhere in a URL and read a backslash as a slash, so
// "/\t/evil.example" and "/\evil.example" are "//evil.example" to them: another host.

/** The page a refused `callbackUrl` falls back to. */
export const DEFAULT_CALLBACK_PATH = "/";

const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F]/g;

/** `value` as a browser would follow it from `origin`: its path on that origin, or null. */
function pathOn(value: string, origin: URL): string | null {
  const cleaned = value.replace(CONTROL_CHARACTERS, "").replaceAll("\\", "/").trim();
  // A path ("/…"), or an absolute URL; a relative reference ("evil", "%2F%2F…") is neither.
  if (!cleaned.startsWith("/") && !URL.canParse(cleaned)) return null;
  const url = URL.parse(cleaned, origin);
  if (!url || url.origin !== origin.origin) return null; // another host, or javascript:, data:, …
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") ? null : path; // "/..//evil.example" resolves to "//evil.example"
}

/**
 * `value` as a path of `origin` (the service's APP_URL) when it names a page of this site, read
 * both as given and percent-decoded once ("/%2F%2Fevil.example", "/%5Cevil.example" are
 * refused); anything else, DEFAULT_CALLBACK_PATH. Never throws.
 */
export function safeCallbackUrl(value: unknown, origin: string): string {
  const base = URL.parse(origin);
  if (typeof value !== "string" || !base) return DEFAULT_CALLBACK_PATH;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return DEFAULT_CALLBACK_PATH; // malformed percent-encoding
  }
  const path = pathOn(value, base);
  return path !== null && pathOn(decoded, base) !== null ? path : DEFAULT_CALLBACK_PATH;
}
