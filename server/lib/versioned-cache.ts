/**
 * Answers read at a version, kept in this process's memory per owner (a database) and key, and
 * given again to a caller that read the same version: for what a workspace's templates_version
 * covers (its templates and its connected channels), which every API request's key check reads
 * and a trigger changes with any change to them, on any instance (a trigger, since no one writer
 * sees every change: a sync, the dashboard, a cascade). At most `limit` keys per owner; the
 * oldest go first.
 */
export function versionedCache<V>(limit: number) {
  const caches = new WeakMap<object, Map<string, { version: string; value: V }>>();
  return async (owner: object, key: string, version: string | undefined, read: () => Promise<V>): Promise<V> => {
    if (version === undefined) return read();
    let cache = caches.get(owner);
    if (!cache) caches.set(owner, (cache = new Map()));
    const hit = cache.get(key);
    if (hit?.version === version) return hit.value;
    // Read after the version was: the answer is at least as new as the version it is kept with.
    const value = await read();
    cache.delete(key); // re-inserted last
    cache.set(key, { version, value });
    if (cache.size > limit) cache.delete(cache.keys().next().value!);
    return value;
  };
}
