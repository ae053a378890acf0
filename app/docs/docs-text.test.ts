import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// What the docs tell an integrator to type (issue 46): one name for the API key in every
// example, and `npx svc` said to run in the service's directory (elsewhere npx offers to install
// an unrelated package named svc).

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules") return [];
    return statSync(join(ROOT, path)).isDirectory() ? files(path, ext) : ext.test(name) ? [path] : [];
  });
}

const READ_BY_PEOPLE = [
  ...files("app/docs", /\.tsx?$/),
  ...files("app/w", /\.tsx$/), // the dashboard's own examples
  ...files("docs", /\.md$/),
  "README.md",
  ...files("packages", /^README\.md$/),
].filter((f) => !f.endsWith(".test.ts"));

describe("the docs' examples", () => {
  it("name the API key $SVC_API_KEY everywhere", () => {
    const others = READ_BY_PEOPLE.flatMap((file) =>
      [...readFileSync(join(ROOT, file), "utf8").matchAll(/\$\{?SVC_\w*KEY\w*/g)]
        .map((m) => m[0].replace("{", ""))
        .filter((name) => name !== "$SVC_API_KEY")
        .map((name) => `${relative(ROOT, join(ROOT, file))}: ${name}`),
    );
    expect(others).toEqual([]);
  });

  it("say where `npx svc` runs, on every customer page that shows it", () => {
    const silent = [...files("app/docs", /page\.tsx$/), "README.md"].filter((file) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      return text.includes("npx svc") && !/service(&apos;|')s directory/.test(text);
    });
    expect(silent).toEqual([]);
  });
});
