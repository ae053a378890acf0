import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { codeStatus, ERROR_CODES, ERROR_TYPES } from "./error-catalog.ts";
import { ERROR_STATUS, type ErrorType } from "./errors.ts";

// The error catalog must stay the single, complete list of D29 codes: every code thrown in
// server/ is documented (and shown at /docs/errors and in the OpenAPI document), and every
// documented code is still thrown somewhere.

const serverDir = fileURLToPath(new URL("..", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

type Use = { code: string; type: ErrorType; where: string };

const STRING = /"([^"\\]*)"|'([^'\\]*)'|`([^`\\$]*)`/g;
const literals = (text: string) => [...text.matchAll(STRING)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");

/** The codes passed to `new AppError(type, code, …)` and to the helpers of errors.ts. */
function codesUsed(): { uses: Use[]; unreadable: string[] } {
  const uses: Use[] = [];
  const unreadable: string[] = [];
  for (const file of sourceFiles(serverDir)) {
    const text = readFileSync(file, "utf8");
    const name = relative(serverDir, file);
    const at = (index: number) => `${name}:${text.slice(0, index).split("\n").length}`;
    // `code` is the second argument: everything up to the next comma (a literal, or a
    // conditional choosing between literals).
    for (const m of text.matchAll(/new AppError\(\s*["'](\w+)["']\s*,\s*([^,]+),/g)) {
      const codes = literals(m[2]!);
      if (codes.length === 0 && name !== join("lib", "errors.ts")) unreadable.push(`${at(m.index)}: ${m[2]!.trim()}`);
      for (const code of codes) uses.push({ code, type: m[1] as ErrorType, where: at(m.index) });
    }
    for (const m of text.matchAll(/(?<![\w.])(invalid|conflict)\(\s*([^,]+),/g)) {
      const codes = literals(m[2]!);
      if (codes.length === 0) unreadable.push(`${at(m.index)}: ${m[2]!.trim()}`);
      for (const code of codes) uses.push({ code, type: m[1] === "invalid" ? "invalid_request" : "conflict", where: at(m.index) });
    }
    // notFound(what, param) always answers `resource_missing` (errors.ts).
    for (const m of text.matchAll(/(?<![\w.])notFound\(\s*["'`]/g))
      uses.push({ code: "resource_missing", type: "not_found", where: at(m.index) });
  }
  return { uses, unreadable };
}

describe("error catalog", () => {
  const { uses, unreadable } = codesUsed();

  it("finds the codes in the source (the scan itself works)", () => {
    expect(uses.map((u) => u.code)).toEqual(
      expect.arrayContaining(["missing_api_key", "missing_scope", "idempotency_key_reused", "resource_missing"]),
    );
  });

  it("reads every code as a string literal", () => {
    // A code held in a variable cannot be checked: pass the literal where the error is made.
    expect(unreadable).toEqual([]);
  });

  it("documents every code thrown in server/, with its type", () => {
    const missing = uses.filter((u) => !ERROR_CODES.some((c) => c.code === u.code)).map((u) => `${u.code} (${u.where})`);
    expect(missing, "add these codes to server/lib/error-catalog.ts").toEqual([]);
    const wrongType = uses
      .filter((u) => ERROR_CODES.some((c) => c.code === u.code && c.type !== u.type))
      .map((u) => `${u.code} is thrown as ${u.type} at ${u.where}`);
    expect(wrongType).toEqual([]);
  });

  it("documents only codes that are still thrown", () => {
    const stale = ERROR_CODES.filter((c) => !uses.some((u) => u.code === c.code)).map((c) => c.code);
    expect(stale, "remove these codes from the catalog, or throw them again").toEqual([]);
  });

  it("has each code once, in snake_case, with a description and an example message", () => {
    const codes = ERROR_CODES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
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

function errorTypeStatuses(type: ErrorType): readonly number[] {
  return ERROR_TYPES.find((t) => t.type === type)?.statuses ?? [];
}
