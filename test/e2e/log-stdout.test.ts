import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ROOT } from '../../tools/bot-process.js';

const LOG_MODULE = path.join(ROOT, 'dist/src/core/log.js');

/** A process that logs through the bot's own logger on stdout, as the bot does (built by build:tools). */
function loggingProcess(script: string) {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', `const { createLogger } = await import(${JSON.stringify(LOG_MODULE)});\n${script}`],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, output: () => out, exited };
}

const messages = (out: string) =>
  out
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('the logger on stdout', () => {
  it('writes a line while the process goes on, not only when it ends', async () => {
    // The child logs once, then waits for its stdin to close: the line must arrive before that.
    const run = loggingProcess(
      "createLogger('info').info('first'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0));",
    );
    const seen = await new Promise<boolean>((resolve) => {
      // A deadline, not a wait: a line that never comes while the child runs fails the case here.
      const timer = setTimeout(() => resolve(false), 10_000);
      run.child.stdout.on('data', () => {
        if (run.output().includes('"first"')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
    });
    run.child.stdin.end();
    expect(seen).toBe(true);
    expect(await run.exited).toBe(0);
  });

  it('writes every line logged just before the process exits', async () => {
    const run = loggingProcess(
      "const log = createLogger('info'); for (let i = 0; i < 500; i += 1) log.info('line ' + i); process.exit(3);",
    );
    expect(await run.exited).toBe(3);
    const lines = messages(run.output());
    expect(lines).toHaveLength(500);
    expect(lines.at(-1)).toBe('line 499');
  });

  it('has a line flushed now written before the process can be killed', async () => {
    // A second stop signal ends the process at once (stopOnSignal); pino's own flush would still be writing.
    const run = loggingProcess(
      `const { flushLogNow } = await import(${JSON.stringify(LOG_MODULE)}); const log = createLogger('info'); log.info('last words'); flushLogNow(log); process.kill(process.pid, 'SIGKILL');`,
    );
    expect(await run.exited).toBeNull();
    expect(messages(run.output())).toEqual(['last words']);
  });
});
