// Loaded into a bot process with `node --import` (NODE_OPTIONS), as shifted-clock.js is: the
// process's monotonic clock (performance.now, which the circuit breaker's cool-down, the service
// client's budgets and its cache read) can be moved forward by a test, the way a unit test moves an
// injected clock. The test writes the total offset (ms) into MONOTONIC_STEP_FILE and sends SIGUSR2;
// the process takes it and writes the same number into `<file>.applied`. Date is left alone (Discord's
// deadlines are wall-clock times), and timers are real: only waits read from this clock end sooner.
// test/support/clock-steps.ts drives it. (perf_hooks' performance is the global one the bot reads.)
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.MONOTONIC_STEP_FILE;
if (file && isMainThread) {
  const realNow = performance.now.bind(performance);
  let offset = 0;
  performance.now = () => realNow() + offset;
  process.on('SIGUSR2', () => {
    const next = Number(readFileSync(file, 'utf8'));
    // Monotonic: a step back would be a clock no code expects.
    if (Number.isFinite(next) && next >= offset) offset = next;
    writeFileSync(`${file}.applied`, String(offset));
  });
}
