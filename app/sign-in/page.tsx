import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { dashboardContext, safeCallbackUrl } from "../_lib/dashboard.ts";
import { signInError } from "./sign-in-error.ts";
import { SignInForm } from "./sign-in-form.tsx";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<{ callbackUrl?: string | string[]; error?: string | string[] }> };

export default async function SignInPage({ searchParams }: Props) {
  const query = await searchParams;
  const callbackUrl = safeCallbackUrl(query.callbackUrl);
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
