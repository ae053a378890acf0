/**
 * Whether a server-side caller's error is the server's `not_found` AppError (wrapped in a
 * TRPCError by the caller): a detail page then answers with Next's 404 page.
 */
export function isNotFoundError(err: unknown): boolean {
  const e = err as { type?: unknown; cause?: { type?: unknown } } | null;
  return e?.type === "not_found" || e?.cause?.type === "not_found";
}
