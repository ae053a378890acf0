export function prepare(root: string, opts?: { quiet?: boolean }): void;
