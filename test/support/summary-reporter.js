import { relative } from 'node:path';
import { slowFiles } from './sequencer.js';

/** How many of the slowest files each run names. */
const SHOWN = 10;
/** A file this slow belongs in slow-files.txt, so that it starts first. */
const SLOW_SECONDS = 10;

/** `test/e2e/x.test.ts 12.3 s` lines, slowest first. */
export function slowestLines(results, rootDir, count = SHOWN) {
  return results.testResults
    .map((file) => ({
      file: relative(rootDir, file.testFilePath),
      seconds: (file.perfStats.end - file.perfStats.start) / 1000,
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
}

/**
 * Prints the ten slowest files of the run, each with its time, so a test that turns slow is seen the
 * day it does (docs/development.md, "Keeping the tests fast"), then the closing line in the plain
 * "N passed, N failed" form CI tools read. Jest's own summary is printed after every reporter's
 * onRunComplete, so the closing line waits for process exit. Under the test run (tools/test-run.js),
 * which adds up its stages, the closing line is the run's, not this stage's.
 */
export default class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const slowest = slowestLines(results, this.rootDir);
    const known = new Set(slowFiles());
    const lines = slowest.map(
      ({ file, seconds }) =>
        `  ${seconds.toFixed(1).padStart(6)} s  ${file}${seconds < SLOW_SECONDS || known.has(file) ? '' : '  (add it to test/support/slow-files.txt)'}`,
    );
    const skipped = results.numPendingTests + results.numTodoTests;
    const closing = `Tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`;
    process.once('exit', () => {
      if (lines.length > 0) process.stderr.write(`The ${lines.length} slowest test files:\n${lines.join('\n')}\n`);
      if (!process.env.TEST_RUN_STAGE) process.stderr.write(`${closing}\n`);
    });
  }
}
