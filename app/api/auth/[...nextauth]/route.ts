import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/server/auth/options.ts";

// next-auth's endpoints: csrf, session, credentials callback, sign-out.

type RouteContext = { params: Promise<{ nextauth: string[] }> };

async function handler(req: NextRequest, context: RouteContext): Promise<Response> {
  return (await NextAuth(req, context, authOptions())) as Response;
}

export { handler as GET, handler as POST };
