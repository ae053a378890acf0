import { API_PREFIX } from "./rest-paths.ts";
import type { Context } from "./trpc.ts";

/** The public URL of an API path, for `Link` headers. */
export function requestUrl(ctx: Pick<Context, "appUrl">, path: string): string {
  return `${ctx.appUrl}${API_PREFIX}${path}`;
}
