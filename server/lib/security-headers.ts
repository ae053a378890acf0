import { randomBytes } from "node:crypto";

// The security headers of every response the dashboard and the docs give (D51), set in one
// place: the server (server/main.ts) adds them before handing a request to Next. Scripts run
// only with the response's own nonce, a fresh one per response ('strict-dynamic': the scripts
// they load may run too); an inline script injected into a page has none and is refused. Next
// takes the nonce from the request's `Content-Security-Policy` header, which the server sets to
// the same policy, and puts it on its own scripts; the root layout puts it on the theme script.
// Every page therefore renders per request (the layout reads the nonce), never prerendered.
// No page may be framed, by this site or any other.

/** The request header that hands the response's nonce to the pages (app/layout.tsx). */
export const NONCE_HEADER = "x-svc-nonce";

export function newNonce(): string {
  return randomBytes(18).toString("base64");
}

export function securityHeaders(options: { appUrl: string; dev: boolean; nonce: string }): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${options.nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${options.dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    ...(options.appUrl.startsWith("https://") ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}
