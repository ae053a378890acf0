/**
 * The bundle of `entry` (relative to `root`), built now if missing or older than a source; its
 * path. With `split`, dynamic imports become chunks loaded when reached; the packages named in
 * `inline` are bundled in instead of staying imports from node_modules.
 */
export function bundled(root: string, entry: string, name: string, options?: { split?: boolean; inline?: string[] }): Promise<string>;
