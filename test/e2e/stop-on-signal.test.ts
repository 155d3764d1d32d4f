import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ROOT } from '../../tools/bot-process.js';

const MODULE = path.join(ROOT, 'dist/src/core/stop-on-signal.js');
const LOG_MODULE = path.join(ROOT, 'dist/src/core/log.js');

/**
 * A process that stops through the helper (built by build:tools) as the bot's do, and says "ready"
 * on stderr once its listeners are in place; its JSON log lines arrive on stdout.
 */
function stoppingProcess(script: string) {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { onStopSignal, stopOnSignal } = await import(${JSON.stringify(MODULE)});
const { createLogger } = await import(${JSON.stringify(LOG_MODULE)});
const logger = createLogger('info');
const say = (text) => process.stderr.write(text + '\\n');
${script}
setInterval(() => undefined, 60_000);
say('ready');`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const saw = (text: string) =>
    new Promise<void>((resolve, reject) => {
      // A deadline, not a wait: it turns a line never said into a failure that shows stderr.
      const timer = setTimeout(() => reject(new Error(`never said ${text}; stderr: ${err}`)), 10_000);
      const check = () => {
        if (!err.split('\n').includes(text)) return;
        clearTimeout(timer);
        child.stderr.off('data', check);
        resolve();
      };
      child.stderr.on('data', check);
      check();
    });
  const lines = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, exited, saw, lines, said: () => err.split('\n').filter(Boolean) };
}

describe('stopOnSignal', () => {
  it('says it is shutting down with the signal and its details, runs the stop, then exits 0', async () => {
    // The child's stop takes a moment (50 ms of its own): the exit must wait for it to say 'closed'.
    const run = stoppingProcess(`stopOnSignal({
  logger,
  details: () => ({ inFlight: 2 }),
  withinMs: 10_000,
  lateExitCode: 1,
  stop: async () => { say('stopping'); await new Promise((r) => setTimeout(r, 50)); say('closed'); },
});`);
    await run.saw('ready');
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.lines()).toEqual([expect.objectContaining({ msg: 'shutting down', signal: 'SIGTERM', inFlight: 2 })]);
    expect(run.said()).toEqual(['ready', 'stopping', 'closed']);
  });

  it('exits with the late exit code when the stop takes longer than its bound', async () => {
    const run = stoppingProcess(`stopOnSignal({
  logger,
  withinMs: 200,
  lateExitCode: 1,
  stop: () => new Promise(() => undefined),
});`);
    await run.saw('ready');
    const started = Date.now();
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 1, signal: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('ignores the other signal while stopping, and ends at once on the same signal again', async () => {
    const run = stoppingProcess(`stopOnSignal({
  logger,
  withinMs: 10_000,
  lateExitCode: 1,
  stop: () => { say('stopping'); return new Promise(() => undefined); },
});
process.on('SIGUSR2', () => say('sentinel'));`);
    await run.saw('ready');
    run.child.kill('SIGTERM');
    await run.saw('stopping');
    run.child.kill('SIGINT');
    // A sentinel signal after it: Linux delivers pending signals lowest number first (SIGINT 2, SIGUSR2
    // 12) and Node handles them in that order, so once the child answers it, SIGINT was handled.
    run.child.kill('SIGUSR2');
    await run.saw('sentinel');
    // Still stopping, once: a SIGINT that was not ignored would have said so, or ended the process.
    expect(run.child.exitCode).toBeNull();
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(run.said()).toEqual(['ready', 'stopping', 'sentinel']);
    expect(run.lines().filter((line) => line.msg === 'shutting down')).toHaveLength(1);
  });
});

describe('onStopSignal', () => {
  it('runs `again` on every signal after the first, when given one', async () => {
    const run = stoppingProcess(
      `onStopSignal((signal) => say('first ' + signal), (signal) => { say('again ' + signal); process.exit(1); });`,
    );
    await run.saw('ready');
    run.child.kill('SIGINT');
    await run.saw('first SIGINT');
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 1, signal: null });
    expect(run.said()).toEqual(['ready', 'first SIGINT', 'again SIGINT']);
  });

  it('hands the signals to a later stop once the first is taken away', async () => {
    const run = stoppingProcess(`const dropEarly = onStopSignal(() => { say('early'); process.exit(3); });
dropEarly();
onStopSignal((signal) => { say('full ' + signal); process.exit(0); });`);
    await run.saw('ready');
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.said()).toEqual(['ready', 'full SIGTERM']);
  });
});
