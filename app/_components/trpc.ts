"use client";

import { TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "@/server/api/root.ts";

// The typed tRPC hooks of the dashboard (TanStack Query integration).
export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** The session is gone (expired, signed out elsewhere, user removed). */
export function isSignedOutError(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  const data = (error as TRPCClientError<AppRouter>).data as { code?: string; type?: string } | undefined;
  return data?.code === "UNAUTHORIZED" || data?.type === "authentication";
}

/** A readable message for any failed call. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : "Something went wrong. Please try again.";
}
