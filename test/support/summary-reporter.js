// Prints the run's closing line in the plain "N passed, N failed" form CI tools read. Jest's own
// summary is printed after every reporter's onRunComplete, so the line waits for process exit.
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `Tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`;
    process.once('exit', () => process.stderr.write(`${line}\n`));
  }
}
