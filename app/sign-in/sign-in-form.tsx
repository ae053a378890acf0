"use client";

import { signIn } from "next-auth/react";
import { useRef, useState, useSyncExternalStore, type FormEvent } from "react";
import { signInError } from "./sign-in-error.ts";

type Props = { callbackUrl: string; initialError: string | null };

export function SignInForm({ callbackUrl, initialError }: Props) {
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);
  const password = useRef<HTMLInputElement>(null);
  // Until the page's script runs, a submit would post the form to the page itself.
  const ready = useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", {
        redirect: false,
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
      });
      if (result?.ok && !result.error) {
        window.location.assign(callbackUrl);
        return;
      }
      setError(signInError(result?.error ?? undefined));
    } catch {
      setError("Could not reach the server. Please try again.");
    }
    setPending(false);
    if (password.current) {
      password.current.value = "";
      password.current.focus();
    }
  }

  return (
    <form className="stack" method="post" onSubmit={onSubmit} aria-describedby={error ? "sign-in-error" : undefined}>
      {error && (
        <p id="sign-in-error" role="alert" className="error">
          {error}
        </p>
      )}
      <div className="field">
        <label htmlFor="email">E-mail</label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required ref={password} />
      </div>
      <button type="submit" className="button primary" disabled={!ready || pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
