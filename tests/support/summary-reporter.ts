import type { Reporter, TestModule } from "vitest/node";

/** How many of the slowest files the summary lists (TEST_SLOWEST_FILES=n for more). */
const SLOWEST_FILES = Number(process.env.TEST_SLOWEST_FILES ?? 15);

/**
 * Prints the slowest test files (where the suite's time goes: the place to look before it grows),
 * then one plain closing line ("vitest: N passed, N failed, N skipped") that CI can read.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
        else skipped += 1;
      }
    }
    const slowest = testModules
      .map((module) => ({
        file: module.moduleId.replace(`${process.cwd()}/`, ""),
        project: module.project.name,
        tests: [...module.children.allTests()].length,
        seconds: module.diagnostic().duration / 1000,
      }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, SLOWEST_FILES);
    if (slowest.length) {
      process.stdout.write(`\nslowest files:\n`);
      for (const row of slowest) {
        process.stdout.write(
          `${row.seconds.toFixed(1).padStart(7)} s  ${row.project.padEnd(11)} ${row.file} (${row.tests} tests)\n`,
        );
      }
    }
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
