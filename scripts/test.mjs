// npm test: Vitest (unit, CLI, and the API integration tests on PostgreSQL and PGlite), then
// Playwright in real Chromium. Both run against a production build of the real server.
//
// A log often keeps only its last lines (CI shows the tail), and Playwright's list prints after
// Vitest's report: so when a step fails, what failed is printed again at the very end, the
// failed tests with the first lines of their errors (from each runner's JSON report).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { prepare } from "./lib/prepare.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
prepare(root);

const reports = join(root, "test-results/reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const vitestReport = join(reports, "vitest.json");
const failedTestsReport = join(reports, "vitest-failed.json");
const playwrightReport = join(reports, "playwright.json");

const bin = (name) => join(root, "node_modules/.bin", name);
const steps = [
  {
    name: "vitest",
    command: [
      bin("vitest"),
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${vitestReport}`,
      `--reporter=${join(root, "scripts/lib/failed-tests-reporter.mjs")}`,
      ...process.argv.slice(2),
    ],
    env: { FAILED_TESTS_REPORT: failedTestsReport },
    failures: (output) => [...vitestFailures(vitestReport), ...unhandled(output), ...serverErrors()],
  },
  {
    name: "playwright",
    command: [bin("playwright"), "test", "--reporter=list,json"],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
    failures: () => playwrightFailures(playwrightReport),
  },
];
const failed = [];
for (const step of steps) {
  const run = await runTee(step.command, { ...process.env, ...step.env });
  if (run.exit !== 0) failed.push({ step, ...run });
}
for (const { step, exit, output } of failed) {
  console.error(`\n${step.name} failed (exit ${exit})`);
  let lines;
  try {
    lines = step.failures(output);
  } catch (err) {
    lines = [`  (its report could not be read: ${err.message})`];
  }
  for (const line of lines.length ? lines : ["  no test failed: an error outside the tests (see its own output above)"])
    console.error(line);
}
process.exit(failed.length ? 1 : 0);

/** Runs a command with its output passed through and kept; its exit code (or signal) and output. */
function runTee([cmd, ...args], env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ["inherit", "pipe", "pipe"] });
    let output = "";
    const keep = (to) => (chunk) => {
      to.write(chunk);
      output += chunk.toString();
    };
    child.stdout.on("data", keep(process.stdout));
    child.stderr.on("data", keep(process.stderr));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ exit: code ?? signal, output }));
  });
}

/**
 * The shared API servers' warnings and errors (e2e/support/global-setup.ts keeps their logs):
 * how many of each, and the last lines with their times, to set beside the failed tests' own.
 */
function serverErrors() {
  const out = [];
  for (const name of existsSync(reports) ? readdirSync(reports) : []) {
    const m = /^server-(.+)\.log$/.exec(name);
    if (!m) continue;
    const lines = readFileSync(join(reports, name), "utf8").split("\n");
    const errors = lines.filter((l) => /"level":(50|60)\b/.test(l));
    const warnings = lines.filter((l) => /"level":40\b/.test(l));
    if (!errors.length && !warnings.length) continue;
    out.push(`  the ${m[1]} server logged ${errors.length} error(s) and ${warnings.length} warning(s); the last:`);
    for (const line of lines.filter((l) => /"level":(40|50|60)\b/.test(l)).slice(-12)) {
      const time = /"time":(\d+)/.exec(line)?.[1];
      out.push(`      ${time ? new Date(Number(time)).toISOString().slice(11, 19) : "--:--:--"} ${line.slice(0, 400)}`);
    }
  }
  return out;
}

/** Vitest's "Unhandled Errors" section (errors outside any test: not in its JSON report), shortened. */
function unhandled(output) {
  const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
  const start = plain.indexOf("Unhandled Error");
  if (start < 0) return [];
  const end = plain.indexOf("Test Files", start);
  const lines = plain.slice(start, end < 0 ? undefined : end).split("\n");
  return excerpt(lines.filter((l) => !/^\s*(at|❯) .*node_modules/.test(l) && !/^\s*⎯+\s*$/.test(l)).join("\n"), 30);
}

/** The first lines of an error message, without terminal colors. */
function excerpt(message, lines = 4) {
  return String(message ?? "")
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .filter((l) => l.trim())
    .slice(0, lines)
    .map((l) => `      ${l.slice(0, 240)}`);
}

/**
 * Each failed test with its project and the time it started (./lib/failed-tests-reporter.mjs),
 * and from Vitest's JSON report each file that failed outside its tests.
 */
function vitestFailures(path) {
  if (!existsSync(path)) return ["  (no report was written: Vitest stopped before its end)"];
  const report = JSON.parse(readFileSync(path, "utf8"));
  const out = [];
  const failedTests = existsSync(failedTestsReport) ? JSON.parse(readFileSync(failedTestsReport, "utf8")) : [];
  for (const t of failedTests)
    out.push(`  ✘ [${t.project}] ${t.file} › ${t.name} (began ${t.startedAt.slice(11, 19)})`, ...excerpt(t.errors.join("\n")));
  for (const file of report.testResults ?? []) {
    const where = file.name.replace(`${root}/`, "");
    const failedHere = (file.assertionResults ?? []).some((t) => t.status === "failed");
    if (!failedHere && file.status === "failed") out.push(`  ✘ ${where}`, ...excerpt(file.message));
  }
  return out;
}

/** Playwright's JSON report: each test whose outcome was unexpected. */
function playwrightFailures(path) {
  if (!existsSync(path)) return ["  (no report was written: Playwright stopped before its end)"];
  const report = JSON.parse(readFileSync(path, "utf8"));
  const out = [];
  const walk = (suite, outer) => {
    const titles = suite.title === suite.file ? outer : [...outer, suite.title]; // a file's suite is named by the file
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === "unexpected") {
          const error = test.results?.flatMap((r) => r.errors ?? []).find((e) => e.message)?.message;
          out.push(`  ✘ ${spec.file}:${spec.line} › ${[...titles, spec.title].join(" › ")}`, ...excerpt(error));
        }
    for (const child of suite.suites ?? []) walk(child, titles);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  for (const e of report.errors ?? []) out.push("  ✘ (outside the tests)", ...excerpt(e.message));
  return out;
}
