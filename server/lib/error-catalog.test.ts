import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { codeStatus, ERROR_CATALOG, ERROR_CODES, ERROR_STATUS, ERROR_TYPES, type ErrorType } from "./error-catalog.ts";
import { AppError, conflict, invalid, notFound } from "./errors.ts";

// The error catalog must stay the single, complete list of D29 codes. That every code thrown
// in server/ is in the catalog, with its type, the compiler checks: `new AppError(code, …)`
// takes an ErrorCode, `invalid()` and `conflict()` only codes of their type (see
// `_compileChecks` below). What the types cannot see is tested here: every documented code is
// still thrown somewhere, and every entry is complete.

const serverDir = fileURLToPath(new URL("..", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const STRING = /"([^"\\]*)"|'([^'\\]*)'|`([^`\\$]*)`/g;
const literals = (text: string) => [...text.matchAll(STRING)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");

/** The codes passed as literals to `new AppError(code, …)` and to the helpers of errors.ts. */
function codesThrown(): Set<string> {
  const codes = new Set<string>();
  for (const file of sourceFiles(serverDir)) {
    const text = readFileSync(file, "utf8");
    // `code` is the first argument: everything up to the next comma (a literal, or a
    // conditional choosing between literals).
    for (const m of text.matchAll(/(?:new AppError|(?<![\w.])invalid|(?<![\w.])conflict)\(\s*([^,]+),/g)) {
      for (const code of literals(m[1]!)) codes.add(code);
    }
    // notFound(what, param) always answers `resource_missing` (errors.ts).
    if (/(?<![\w.])notFound\(\s*["'`]/.test(text)) codes.add("resource_missing");
  }
  return codes;
}

describe("error catalog", () => {
  const thrown = codesThrown();

  it("finds the codes in the source (the scan itself works)", () => {
    expect([...thrown]).toEqual(
      expect.arrayContaining(["missing_api_key", "missing_scope", "idempotency_key_reused", "resource_missing", "phone_taken"]),
    );
  });

  it("documents only codes that are still thrown", () => {
    const stale = ERROR_CODES.filter((c) => !thrown.has(c.code)).map((c) => c.code);
    expect(stale, "remove these codes from the catalog, or throw them again").toEqual([]);
  });

  it("lists the catalog in its order, each code once, in snake_case, with a description and an example message", () => {
    expect(ERROR_CODES.map((c) => c.code)).toEqual(Object.keys(ERROR_CATALOG));
    for (const c of ERROR_CODES) {
      expect(c.code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(c.description.length, c.code).toBeGreaterThan(10);
      expect(c.message.length, c.code).toBeGreaterThan(5);
      expect(c.where.length, c.code).toBeGreaterThan(0);
      expect(errorTypeStatuses(c.type), c.code).toContain(codeStatus(c));
    }
  });

  it("documents every error type once, with the status of ERROR_STATUS first", () => {
    expect(ERROR_TYPES.map((t) => t.type).sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    for (const t of ERROR_TYPES) {
      expect(t.statuses[0]).toBe(ERROR_STATUS[t.type]);
      expect(t.description.length).toBeGreaterThan(10);
      expect(t.action.length).toBeGreaterThan(10);
    }
  });
});

describe("AppError", () => {
  it("takes its type and status from the catalog entry of its code", () => {
    const cases = [
      ["missing_scope", "forbidden", 403],
      ["daily_limit_reached", "quota_exceeded", 403],
      ["parameter_invalid", "invalid_request", 400],
      ["idempotency_key_reused", "invalid_request", 422],
      ["request_too_large", "invalid_request", 413],
      ["tag_name_taken", "conflict", 409],
      ["service_unavailable", "api_error", 503],
    ] as const;
    for (const [code, type, status] of cases) {
      const err = new AppError(code, "message", { param: "p" });
      expect({ code: err.code, type: err.type, status: err.status, param: err.param, message: err.message }).toEqual({
        code,
        type,
        status,
        param: "p",
        message: "message",
      });
    }
  });

  it("has no param unless given, and the helpers build the same errors", () => {
    expect(new AppError("rate_limited", "slow down").param).toBeNull();
    expect(invalid("invalid_cursor", "bad", "after")).toMatchObject({ type: "invalid_request", code: "invalid_cursor", param: "after" });
    expect(conflict("phone_taken", "taken", "phone")).toMatchObject({ type: "conflict", code: "phone_taken", status: 409 });
    expect(notFound("tag", "tag_id")).toMatchObject({
      type: "not_found",
      code: "resource_missing",
      message: "No such tag.",
      param: "tag_id",
    });
  });
});

/** Never run: `tsc --noEmit` fails when one of these stops being a compile error. */
function _compileChecks(): unknown[] {
  return [
    // @ts-expect-error a code the catalog does not have
    new AppError("no_such_code", "message"),
    // @ts-expect-error tag_name_taken is a conflict code, not an invalid_request one
    invalid("tag_name_taken", "message"),
    // @ts-expect-error parameter_invalid is an invalid_request code, not a conflict one
    conflict("parameter_invalid", "message"),
  ];
}

function errorTypeStatuses(type: ErrorType): readonly number[] {
  return ERROR_TYPES.find((t) => t.type === type)?.statuses ?? [];
}
