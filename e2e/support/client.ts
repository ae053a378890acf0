import { inject } from "vitest";

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

export type RequestOptions = { headers?: Record<string, string>; method?: string; rawBody?: string | Buffer };

/** A small HTTP client for the public API of the server under test (real HTTP, no mocks). */
export function api(key?: string, baseUrl = inject("api").baseUrl) {
  async function call<T = any>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...opts.headers };
    let payload: string | Buffer | undefined = opts.rawBody;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers["Content-Type"] ??= "application/json";
    }
    const res = await fetch(`${baseUrl}/api/v1${path}`, { method, headers, body: payload as BodyInit | undefined, redirect: "manual" });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }
  return {
    get: <T = any>(path: string, opts?: RequestOptions) => call<T>("GET", path, undefined, opts),
    post: <T = any>(path: string, body?: unknown, opts?: RequestOptions) => call<T>("POST", path, body, opts),
    request: call,
  };
}

export function fixtures() {
  return inject("api").fixtures;
}

/** Asserts the spec's error body (D29) and returns it. */
export function expectError(
  res: ApiResponse,
  expected: { status: number; type: string; code?: string; param?: string | null },
): { type: string; code: string; message: string; param: string | null; doc_url: string } {
  const error = res.body?.error;
  const summary = { status: res.status, type: error?.type, code: error?.code, param: error?.param };
  const want = {
    status: expected.status,
    type: expected.type,
    code: expected.code ?? error?.code,
    param: expected.param === undefined ? error?.param : expected.param,
  };
  if (JSON.stringify(summary) !== JSON.stringify(want)) {
    throw new Error(`expected ${JSON.stringify(want)}, got ${JSON.stringify(summary)}: ${res.text}`);
  }
  const keys = Object.keys(error).sort().join(",");
  if (keys !== "code,doc_url,message,param,type") throw new Error(`error body has fields ${keys}`);
  // The code's row on /docs/errors (its id is `code-<code>`).
  if (!/\/docs\/errors#code-[a-z_]+$/.test(error.doc_url) || !error.doc_url.endsWith(`#code-${error.code}`))
    throw new Error(`bad doc_url ${error.doc_url}`);
  if (typeof error.message !== "string" || !error.message) throw new Error("empty message");
  if (/\bat .+:\d+:\d+/.test(res.text)) throw new Error("stack trace leaked");
  return error;
}
