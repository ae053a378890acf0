import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeCallbackUrl } from "@/server/auth/callback-url.ts";
import { env } from "@/server/lib/env.ts";
import { dashboardContext } from "../_lib/dashboard.ts";
import { signInError } from "./sign-in-error.ts";
import { SignInForm } from "./sign-in-form.tsx";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<{ callbackUrl?: string | string[]; error?: string | string[] }> };

export default async function SignInPage({ searchParams }: Props) {
  const query = await searchParams;
  // One checked path serves both: the redirect of a signed-in user and the form's after sign-in.
  const callbackUrl = safeCallbackUrl(query.callbackUrl, env().appUrl);
  if ((await dashboardContext(null)).principal) redirect(callbackUrl);
  return (
    <main className="centered">
      <div className="card">
        <h1>Sign in to svc</h1>
        <SignInForm callbackUrl={callbackUrl} initialError={query.error ? signInError(String(query.error)) : null} />
      </div>
    </main>
  );
}
