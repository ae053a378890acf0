// D87: a batch may hold several workspaces' items, and every statement names one workspace,
// which Citus routes to that workspace's worker (on PostgreSQL and PGlite it is the same
// statement). These split a batch into one statement per workspace.

/**
 * `items` grouped by their workspace (`workspaceOf`, else their `workspace_id`), in the order
 * each workspace first appears: for statements that run side by side.
 */
export function byWorkspace<T extends { workspace_id: string }>(items: readonly T[]): T[][];
export function byWorkspace<T>(items: readonly T[], workspaceOf: (item: T) => string): T[][];
export function byWorkspace<T>(items: readonly T[], workspaceOf = (item: T) => (item as { workspace_id: string }).workspace_id): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(workspaceOf(item));
    if (group) group.push(item);
    else groups.set(workspaceOf(item), [item]);
  }
  return [...groups.values()];
}

/**
 * One call per workspace of `items`, one after the other in workspace id order (two
 * transactions locking rows this way take them in one order and never wait on each other in
 * a circle): every call's rows, in that order.
 */
export async function rowsPerWorkspace<T, R>(
  items: readonly T[],
  workspaceOf: (item: T) => string,
  call: (workspaceId: string, items: T[]) => Promise<R[]>,
): Promise<R[]> {
  const groups = byWorkspace(items, workspaceOf).sort((a, b) => (workspaceOf(a[0]!) < workspaceOf(b[0]!) ? -1 : 1));
  const out: R[] = [];
  for (const group of groups) out.push(...(await call(workspaceOf(group[0]!), group)));
  return out;
}

/** `rowsPerWorkspace` whose calls answer each of their items in order: the answers in the items' order. */
export async function perWorkspace<T, R>(
  items: readonly T[],
  workspaceOf: (item: T) => string,
  call: (workspaceId: string, items: T[]) => Promise<R[]>,
): Promise<R[]> {
  const indexed = items.map((item, i) => ({ item, i }));
  const answered = await rowsPerWorkspace(
    indexed,
    (x) => workspaceOf(x.item),
    async (ws, group) =>
      (
        await call(
          ws,
          group.map((x) => x.item),
        )
      ).map((answer, j) => ({ answer, i: group[j]!.i })),
  );
  const out = new Array<R>(items.length);
  for (const { answer, i } of answered) out[i] = answer;
  return out;
}
