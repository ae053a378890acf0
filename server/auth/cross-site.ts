// The dashboard's changes (tRPC mutations, POST /api/trpc) are authenticated by the session
// cookie, so they are carried out only when they come from the dashboard's own pages:
// - the body is JSON, which a cross-site form cannot send (and fetch only after a CORS
//   preflight, never granted here);
// - a browser's `Sec-Fetch-Site`, when sent, is `same-origin`;
// - otherwise an `Origin`, when sent, is APP_URL's origin or the request's own host;
// - a request with neither header is no browser's (every current browser sends one of them on
//   a POST): tools on a server, which hold the cookie themselves. It is carried out; a browser
//   cannot be made to send it, and the cookie is SameSite=Lax besides.
// docs/dashboard.md says the same for operators.

/** Why a POST to the dashboard's API is refused as cross-site, or null when it is not. */
export function crossSiteRefusal(method: string, headers: Headers, appUrl: string): string | null {
  if (method !== "POST") return null;
  const type = headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase();
  if (type !== "application/json") return "The dashboard's API accepts changes as JSON only.";
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" ? null : "Cross-site request refused.";
  const origin = headers.get("origin");
  if (origin === null || origin === new URL(appUrl).origin || URL.parse(origin)?.host === headers.get("host")) return null;
  return "Cross-site request refused: the Origin is not this service's.";
}
