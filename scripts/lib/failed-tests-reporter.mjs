// A Vitest reporter for `npm test`'s closing summary: each failed test with its project (the
// engine an API file ran on) and when it started, which Vitest's JSON report leaves out. A
// failure of the pipeline on one engine then reads as one engine's tests from one moment on,
// beside that engine's server log (scripts/test.mjs).
import { writeFileSync } from "node:fs";

export default class FailedTestsReporter {
  failed = [];

  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestCaseResult(testCase) {
    const result = testCase.result();
    if (result.state !== "failed") return;
    this.failed.push({
      project: testCase.project.name,
      file: testCase.module.moduleId.replace(`${this.root}/`, ""),
      name: testCase.fullName,
      startedAt: new Date(testCase.diagnostic()?.startTime ?? Date.now()).toISOString(),
      errors: (result.errors ?? []).map((e) => e.stack || e.message || String(e)),
    });
  }

  onTestRunEnd() {
    const path = process.env.FAILED_TESTS_REPORT;
    if (path) writeFileSync(path, JSON.stringify(this.failed, null, 2));
  }
}
