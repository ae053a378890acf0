import { AppError } from "./errors.ts";

// Input the database could not store, refused where input enters (D50): the REST facade's
// parsed body and every procedure's raw input (body, query and path parameters of the public
// API; the dashboard's tRPC input), so no field needs a rule of its own.

/** How deep a JSON value may nest: `{}` and `[]` are one level each. */
export const MAX_JSON_DEPTH = 32;

// PostgreSQL text holds neither NUL nor a UTF-16 surrogate without its pair.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const dotted = (path: readonly string[]) => (path.length ? path.join(".") : null);

function invalidText(path: readonly string[]): AppError {
  const param = dotted(path);
  return new AppError(
    "invalid_text",
    `${param ?? "The request"} contains a character that cannot be stored: a NUL character or an unpaired UTF-16 surrogate.`,
    { param },
  );
}

function tooDeep(path: readonly string[]): AppError {
  return new AppError("invalid_json", `The request nests JSON deeper than ${MAX_JSON_DEPTH} levels.`, {
    param: dotted(path),
  });
}

/**
 * Throws `invalid_text` (`param` = the dotted path of the string; of the object, for a key)
 * or `invalid_json` (nested deeper than MAX_JSON_DEPTH) for the first fault in `value`,
 * walked without recursion so no depth can exhaust the stack.
 */
export function assertStorable(value: unknown): void {
  const stack: { value: unknown; path: string[]; depth: number }[] = [{ value, path: [], depth: 0 }];
  while (stack.length) {
    const { value: item, path, depth } = stack.pop()!;
    if (typeof item === "string") {
      if (UNSTORABLE.test(item)) throw invalidText(path);
      continue;
    }
    if (item === null || typeof item !== "object") continue;
    if (depth + 1 > MAX_JSON_DEPTH) throw tooDeep(path);
    const entries = Array.isArray(item) ? item.map((v, i) => [String(i), v] as const) : Object.entries(item);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (UNSTORABLE.test(key)) throw invalidText(path);
      stack.push({ value: child, path: [...path, key], depth: depth + 1 });
    }
  }
}
