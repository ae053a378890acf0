// The security headers of every response the dashboard and the docs give (D51), set in one
// place: the server (server/main.ts) adds them before handing a request to Next. Next's pages
// carry inline scripts of their own (no nonce on statically rendered pages), so scripts may be
// inline but only from this origin; no page may be framed, by this site or any other.

export function securityHeaders(options: { appUrl: string; dev: boolean }): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${options.dev ? " 'unsafe-eval'" : ""}`,
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
