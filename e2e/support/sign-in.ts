// Signs a dashboard user in through next-auth's credentials flow, as a browser would; shared by
// the API tests' dashboard client and the benchmark.

/** Returns the cookie header of a signed-in session. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  const all = [...cookies, ...res.headers.getSetCookie().map((c) => c.split(";")[0])];
  if (!all.some((c) => c?.includes("session-token"))) throw new Error(`sign-in failed: ${res.status}`);
  return all.join("; ");
}
