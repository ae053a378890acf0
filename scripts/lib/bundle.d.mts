/** The bundle of `entry` (relative to `root`), built now if missing or older than a source; its path. */
export function bundled(root: string, entry: string, name: string): Promise<string>;
