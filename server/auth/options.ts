import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db, isConnectionError } from "../db/client.ts";
import { env } from "../lib/env.ts";
import { CLIENT_ADDRESS_HEADER } from "../lib/client-address.ts";
import { safeCallbackUrl } from "./callback-url.ts";
import { createSession, isSessionActive, revokeSession } from "./dashboard-sessions.ts";
import { verifyCredentials } from "./verify-credentials.ts";

// next-auth (v4) for the dashboard: credentials with hashed passwords, JWT sessions in an
// httpOnly, SameSite=Lax cookie (secure when APP_URL is https). Roles are not in the token:
// they are read from the memberships on every request (session-context.ts), so removing a
// membership takes effect at once. The token names a server-side session
// (dashboard-sessions.ts): sign-out revokes it, and a revoked token no longer signs anyone in.

declare module "next-auth" {
  interface Session {
    userId?: string;
    /** The server-side session could not be checked: the database cannot be reached. */
    unavailable?: true;
  }
}

export const SIGN_IN_PATH = "/sign-in";

/** A signed-in dashboard session lasts one day; then the user signs in again. */
export const SESSION_MAX_AGE_SECONDS = 24 * 60 * 60;

let cached: NextAuthOptions | undefined;

/** Built on first use, not at import, so `next build` never reads the environment. */
export function authOptions(): NextAuthOptions {
  if (cached) return cached;
  const { appUrl, authSecret } = env();
  // next-auth v4 takes its own origin from NEXTAUTH_URL; the service's is APP_URL.
  process.env.NEXTAUTH_URL ??= appUrl;
  cached = {
    secret: authSecret,
    useSecureCookies: appUrl.startsWith("https://"),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    providers: [
      CredentialsProvider({
        name: "e-mail and password",
        credentials: {
          email: { label: "E-mail", type: "email" },
          password: { label: "Password", type: "password" },
        },
        authorize: async (credentials, req) => {
          const address = (req.headers as Record<string, string | undefined> | undefined)?.[CLIENT_ADDRESS_HEADER];
          return verifyCredentials(await db(), credentials, address ?? "unknown");
        },
      }),
    ],
    callbacks: {
      // next-auth's own redirects (sign-out, its error page) follow the sign-in page's rule.
      redirect: ({ url, baseUrl }) => `${baseUrl}${safeCallbackUrl(url, baseUrl)}`,
      // At sign-in the token gets the id of a new server-side session.
      jwt: async ({ token, user }) => (user ? { ...token, sid: await createSession(await db(), user.id, SESSION_MAX_AGE_SECONDS) } : token),
      // The token's `sub` is the user id (next-auth's default); the session exposes it only
      // while the server-side session is live.
      // next-auth turns an error thrown here into "no session": a database that cannot be
      // reached is said instead, so the caller answers 503 rather than "sign in".
      session: async ({ session, token }) => {
        try {
          return { ...session, userId: (await isSessionActive(await db(), token.sid, token.sub)) ? token.sub : undefined };
        } catch (err) {
          if (isConnectionError(err)) return { ...session, unavailable: true as const };
          throw err;
        }
      },
    },
    events: {
      signOut: async ({ token }) => revokeSession(await db(), token?.sid),
    },
  };
  return cached;
}
