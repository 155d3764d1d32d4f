// `npm test`: the checks side by side (types and lint, layers, format, and the build the tests run),
// the unit and integration tests beside them from the start, then the end-to-end tests once those
// passed and the build is there, while the checks that remain run niced beside them. A failed check or stage stops the run
// and shows its output. Plain JavaScript: it runs before anything is compiled.
//
//   npm test [-- <jest arguments>]   e.g. npm test -- -t 'names'   (the arguments go to both Jest runs)
//
// The e2e files spend most of their time waiting on the child processes they start, so they run
// with more workers than the machine has cores (TEST_E2E_WORKERS); the unit stage runs two a core
// (TEST_UNIT_WORKERS): its integration files wait on their servers, and with four workers here it
// took 55 s where three took 63-71 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { SHARED_POSTGRES_ENV, stopSharedPostgres } from './shared-postgres.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SCRIPTS = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
const cores = availableParallelism();
const UNIT_WORKERS = process.env.TEST_UNIT_WORKERS ?? String(cores * 2);
const E2E_WORKERS = process.env.TEST_E2E_WORKERS ?? String(cores * 2 + 1);
const JEST = ['--experimental-vm-modules', path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--passWithNoTests'];
const jestArgs = process.argv.slice(2);

/**
 * The checks: each a package.json script, run at once beside the others. `check:code` is `typecheck`
 * and `lint` over one program; `check:unused` (knip) finds files, exports and dependencies nothing
 * uses, `check:duplicates` (jscpd) code written twice; the build skips type checking, which
 * `check:code` does.
 */
const CHECKS = ['check:code', 'lint:layers', 'check:unused', 'check:duplicates', 'format:check', 'build:test'];
const BUILD = 'build:test';

const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * Runs `command` through the shell as npm would (node_modules/.bin first on PATH); resolves with its
 * code and output. Not detached: in a session of its own it would be scheduled as its own group
 * (Linux's autogroup), where the checks' `nice` would not yield to the tests.
 */
function run(command, args, { quiet, env = {} }) {
  let child;
  const ended = new Promise((resolve) => {
    child = spawn(command, args, {
      cwd: ROOT,
      shell: args.length === 0,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: {
        ...process.env,
        ...env,
        PATH: `${path.join(ROOT, 'node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
      },
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
  // Ctrl+C reaches every command: they share the terminal's process group. Jest's workers end with it.
  return { ended, stop: () => child.kill('SIGTERM') };
}

/**
 * Starts every check at once. The build the tests run goes first (the e2e stage waits on it); the
 * others run niced, so the unit tests that start beside them get the cores first and the checks take
 * what is left. `onFailure` hears of the first check that fails.
 */
function startChecks(onFailure) {
  const started = performance.now();
  const ended = CHECKS.map((name) => {
    const at = performance.now();
    const command = name === BUILD ? SCRIPTS[name] : `nice -n 10 ${SCRIPTS[name]}`;
    return run(command, [], { quiet: true }).ended.then((result) => {
      process.stdout.write(`${result.code === 0 ? '✔' : '✘'} ${name} (${seconds(at)})\n`);
      if (result.code !== 0) onFailure();
      return { name, ...result };
    });
  });
  const all = Promise.all(ended).then((results) => {
    const failed = results.filter((result) => result.code !== 0);
    for (const { name, output } of failed) process.stdout.write(`\n── ${name} failed ──\n${output}\n`);
    return { ok: failed.length === 0, time: seconds(started) };
  });
  return { build: ended[CHECKS.indexOf(BUILD)], all };
}

function jest(name, dirs, workers, outputDir) {
  const started = performance.now();
  const outputFile = path.join(outputDir, `${name}.json`);
  // The stage's PostgreSQL cluster lives here (as globalSetup would make it: a folder the server's user can
  // reach), so it is stopped even when the stage is stopped, which runs no Jest teardown.
  const postgresDir = mkdtempSync(path.join(tmpdir(), 'bot-pg-run-'));
  const stage = run(
    process.execPath,
    [...JEST, `--maxWorkers=${workers}`, '--json', `--outputFile=${outputFile}`, ...dirs, ...jestArgs],
    { quiet: false, env: { TEST_RUN_STAGE: name, [SHARED_POSTGRES_ENV]: postgresDir } },
  );
  const ended = stage.ended.then(async ({ code }) => {
    await stopSharedPostgres(postgresDir);
    let results;
    try {
      results = JSON.parse(readFileSync(outputFile, 'utf8'));
    } catch {
      results = undefined;
    }
    return { ok: code === 0, time: seconds(started), results };
  });
  return { ended, stop: stage.stop };
}

function closingLine(runs) {
  const sum = (key) => runs.reduce((total, { results }) => total + (results?.[key] ?? 0), 0);
  const skipped = sum('numPendingTests') + sum('numTodoTests');
  return `Tests: ${sum('numPassedTests')} passed, ${sum('numFailedTests')} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

const outputDir = mkdtempSync(path.join(tmpdir(), 'test-run-'));
const started = performance.now();
const times = [];
const runs = [];
let checked;
try {
  // Each Jest stage needs only the stage before it, and the e2e stage the build: whatever checks
  // still run (niced) beside them. A check that fails ends the running stage: the run stops there.
  let stage;
  let checkFailed = false;
  const checks = startChecks(() => {
    checkFailed = true;
    stage?.stop();
  });
  for (const [name, dirs, workers] of [
    ['unit', ['test/unit', 'test/integration'], UNIT_WORKERS],
    ['e2e', ['test/e2e'], E2E_WORKERS],
  ]) {
    // Only the e2e files run what the build makes (the bot, the stand-in, the scripts).
    if (name === 'e2e' && (await checks.build).code !== 0) break;
    if (checkFailed) break;
    stage = jest(name, dirs, workers, outputDir);
    const result = await stage.ended;
    if (checkFailed) break;
    times.push(`${name} ${result.time}`);
    runs.push(result);
    if (!result.ok) break;
  }
  checked = await checks.all;
  times.unshift(`checks ${checked.time}`);
} finally {
  rmSync(outputDir, { recursive: true, force: true });
}
const ok = checked.ok && runs.length === 2 && runs.every((stage) => stage.ok);
process.stderr.write(`Stages: ${times.join(', ')} (side by side); ${seconds(started)} in all\n`);
if (!checked.ok) process.stderr.write('Stopped at the checks: fix what is shown above, then run npm test again.\n');
process.stderr.write(`${closingLine(checked.ok ? runs : [])}\n`);
process.exitCode = ok ? 0 : 1;
