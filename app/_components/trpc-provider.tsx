"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/api/root.ts";
import { WORKSPACE_HEADER } from "@/server/auth/workspace-header.ts";
import { isSignedOutError, TRPCProvider } from "./trpc.ts";

function backToSignIn(error: unknown): void {
  if (!isSignedOutError(error)) return;
  const here = window.location.pathname + window.location.search;
  // A full load on purpose: it drops every cached query of the old session.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign(`/sign-in?callbackUrl=${encodeURIComponent(here)}`);
}

/**
 * Query cache and tRPC client for one workspace: every call carries the workspace header.
 * The layout keys this provider by workspace, so switching workspace starts a fresh cache
 * and no list of one workspace is ever shown under another.
 */
export function DashboardProviders({ workspace, children }: { workspace: string; children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: backToSignIn }),
        mutationCache: new MutationCache({ onError: backToSignIn }),
        defaultOptions: {
          queries: { staleTime: 15_000, retry: (failures, error) => !isSignedOutError(error) && failures < 2 },
        },
      }),
  );
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: "/api/trpc", headers: () => ({ [WORKSPACE_HEADER]: workspace }) })],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
