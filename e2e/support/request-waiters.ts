/**
 * What a fake provider's tests wait on: its first `count` requests. `recorded` is called after
 * each request is pushed to `requests`; `waitFor` resolves once there are `count` of them, or
 * fails after `timeoutMs` naming the fake and how many came.
 */
export function requestWaiters<T>(requests: T[], fake: string) {
  const waiters = new Set<() => void>();
  return {
    recorded(): void {
      for (const wake of waiters) wake();
    },
    waitFor(count: number, timeoutMs = 10_000): Promise<T[]> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(requests.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${fake} got ${requests.length} of ${count} requests`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
