import { randomFillSync } from "node:crypto";

// Every identifier of the service is made here: the spec's prefixes (msg_, ct_, flow_, run_,
// tag_, field_, cev_) plus our own (evt_, key_, wh_, usr_, ch_, ses_, aud_, sup_).
const PREFIXES = {
  message: "msg",
  contact: "ct",
  flow: "flow",
  run: "run",
  tag: "tag",
  field: "field",
  event: "evt",
  contactEvent: "cev",
  key: "key",
  webhook: "we",
  delivery: "whd",
  user: "usr",
  channel: "ch",
  job: "job",
  session: "ses",
  template: "tpl",
  audit: "aud",
  suppression: "sup",
} as const;

export type IdKind = keyof typeof PREFIXES;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Random bytes are drawn from the CSPRNG 4 KiB at a time, as Node's randomUUID does: an id
// takes about 17 of them, and a call to the generator for each id cost more than the rest of
// making it (its share of a CPU profile: docs/architecture.md, "Database").
const pool = Buffer.alloc(4096);
let drawn = pool.length;

/** `length` characters of base62 from a uniform source (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    if (drawn === pool.length) {
      randomFillSync(pool);
      drawn = 0;
    }
    const byte = pool[drawn++]!;
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** A time-ordered id: 8 chars of millisecond time, then 16 random, so ids sort by creation. */
export function newId(kind: IdKind): string {
  const time = Date.now().toString(36).padStart(9, "0");
  return `${PREFIXES[kind]}_${time}${randomBase62(16)}`;
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${PREFIXES[kind]}_`);
}

/**
 * The SQL expression that makes an id of `kind` inside a statement, for rows a statement
 * derives itself (a webhook delivery per event and endpoint): the database's `svc_new_id`,
 * which gives the shape of `newId` (prefix, 9 base36 characters of time, 16 base62).
 */
export function newIdSql(kind: IdKind): string {
  return `svc_new_id('${PREFIXES[kind]}')`;
}
