import type { Instrumentation } from "next";

// The server starts Next quietly (server/main.ts), which also silenced an error thrown in a
// route handler: the provider callbacks answered 500 and nothing was logged. Each such error is
// logged here, as the API's and the dashboard's own unexpected errors are.
export const onRequestError: Instrumentation.onRequestError = async (err, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { log } = await import("./server/lib/log.ts");
  const digest = (err as { digest?: string }).digest;
  log().error({ err, method: request.method, route: context.routePath, digest }, "request failed");
};
