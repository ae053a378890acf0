import { API_PREFIX } from "./rest-paths.ts";
import type { Context } from "./trpc.ts";

/**
 * The public URL of an API path, for `Link` headers; with `filters`, a list's filters as the
 * request gave them (timestamps as ISO text), so that the next page keeps them (D10).
 */
export function requestUrl(ctx: Pick<Context, "appUrl">, path: string, filters: Record<string, unknown> = {}): string {
  const given = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined) given.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  return `${ctx.appUrl}${API_PREFIX}${path}${given.size ? `?${given.toString()}` : ""}`;
}
