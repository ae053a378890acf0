// Retries with exponential backoff and full jitter: attempt n waits a random time in
// [base·2^(n-1) / 2, base·2^(n-1)], capped; the caller gives up after its deadline.

export const RETRY_BASE_MS = 2_000;
export const RETRY_CAP_MS = 30 * 60_000;

export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
