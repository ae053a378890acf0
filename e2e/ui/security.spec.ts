import { expect, signIn, test } from "./fixtures/test.ts";

// The dashboard's own security in real Chromium (D51): its security headers, a page framed by
// another site refused, pages (the dashboard, the API reference) still working under the
// Content-Security-Policy, inline scripts without the response's nonce refused, sign-out ending the session on the server, and sign-in slowed by
// wrong passwords without locking the real user out.

const GUARDED = { email: "guarded@example.test", password: "guarded-password-1" };
const REVOKER = { email: "revoker@example.test", password: "revoker-password-1" };

test("dashboard and docs responses carry the security headers", async ({ request, seed }) => {
  for (const path of ["/sign-in", "/docs", `/w/${seed.alpha.id}/keys`, "/docs/errors"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    const headers = res.headers();
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"], path).toBe("DENY");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    // APP_URL is http here: no Strict-Transport-Security.
    expect(headers["strict-transport-security"], path).toBeUndefined();
  }
});

test("scripts run only with the response's nonce, a fresh one per response", async ({ page, request }) => {
  const nonceOf = (csp: string | undefined) => /script-src [^;]*'nonce-([A-Za-z0-9+/=]+)'/.exec(csp ?? "")?.[1];
  const first = await request.get("/sign-in");
  const second = await request.get("/sign-in");
  const nonces = [first, second].map((r) => nonceOf(r.headers()["content-security-policy"]));
  expect(nonces[0]).toMatch(/^[A-Za-z0-9+/]{24}$/); // 18 random bytes
  expect(nonces[1]).not.toBe(nonces[0]);
  expect(/script-src [^;]*/.exec(first.headers()["content-security-policy"] ?? "")?.[0]).not.toContain("'unsafe-inline'");
  // Every script of the page (Next's and the theme's) carries the response's nonce.
  const html = await first.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(2);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonces[0]}"`);

  // What an injection into the page (stored or reflected XSS) would add: an inline script and
  // an inline event handler, without the nonce, into the real response under its real headers.
  await page.route("**/sign-in", async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(
      "<body>",
      '<body><script>window.__injected = "script"</script><img src="/none.png" onerror="window.__injected = \'handler\'">',
    );
    await route.fulfill({ response, body });
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __violations: seen });
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.addInitScript(() => localStorage.setItem("svc-theme", "dark"));
  await page.goto("/sign-in");
  // The page's own scripts ran: the theme script (inline, with the nonce) and React, whose
  // hydration enables the form's button.
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations.length)).toBe(2);
  const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
  expect(violations.sort()).toEqual(["script-src-attr inline", "script-src-elem inline"]);
  expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined();
});

test("a dashboard page framed by another site is refused", async ({ page, baseURL }) => {
  const refusals: string[] = [];
  page.on("console", (m) => {
    if (/frame-ancestors|X-Frame-Options/i.test(m.text())) refusals.push(m.text());
  });
  await page.setContent(`<h1>Not svc</h1><iframe id="victim" src="${baseURL}/sign-in" width="600" height="400"></iframe>`);
  await expect.poll(() => refusals.length).toBeGreaterThan(0);
  const framed = page.frames().find((f) => f !== page.mainFrame());
  expect(framed?.url()).not.toContain("/sign-in");
  await expect(page.frameLocator("#victim").getByRole("heading", { name: "Sign in to svc" })).toHaveCount(0);
});

test("the dashboard and the API reference work under the Content-Security-Policy", async ({ page, seed }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect)/i.test(m.text())) violations.push(m.text());
  });
  await signIn(page, seed.admin);
  await expect(page.getByRole("row", { name: new RegExp(seed.alpha.key) })).toBeVisible();
  await page.goto("/docs");
  // The reference renders in the browser from the whole OpenAPI document: about 6 s of CPU, far
  // more on a busy machine.
  await expect(page.getByRole("heading", { name: "Check an API key" })).toBeVisible({ timeout: 90_000 });
  expect(violations).toEqual([]);
});

test("sign-out ends the session on the server: a copy of the cookie is refused afterwards", async ({ page, browser, seed }) => {
  await signIn(page, REVOKER);
  const copied = await page.context().cookies();
  expect(copied.some((c) => c.name.endsWith("next-auth.session-token"))).toBe(true);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  const thief = await browser.newContext({ baseURL: page.url() });
  await thief.addCookies(copied);
  const stolen = await thief.newPage();
  await stolen.goto(`/w/${seed.alpha.id}/keys`);
  await expect(stolen).toHaveURL(/\/sign-in\?callbackUrl=/);
  const api = await thief.request.get(`/api/trpc/keys.list?input=${encodeURIComponent("{}")}`, {
    headers: { "x-svc-workspace": seed.alpha.id },
  });
  expect(api.status()).toBe(401);
  await thief.close();
});

test("wrong passwords slow the sign-in down without locking the real user out", async ({ page, request }) => {
  const csrf = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const attempts = Array.from({ length: 10 }, () =>
    request.post("/api/auth/callback/credentials", {
      form: { csrfToken: csrf.csrfToken, email: GUARDED.email, password: "not-the-password", json: "true" },
      maxRedirects: 0,
    }),
  );
  for (const res of await Promise.all(attempts)) {
    expect(res.headers()["set-cookie"] ?? "").not.toContain("session-token=");
  }
  const started = Date.now();
  await signIn(page, GUARDED);
  expect(Date.now() - started).toBeGreaterThan(4_000); // slowed (at most 5 s), not refused
});
