import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from '../../tools/bot-process.js';

/** The built playground as a child process, with what it printed (stdout and stderr together). */
export interface PlaygroundProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in what it printed, now or later; rejects after `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

export function startPlayground(cli: string, args: readonly string[]): PlaygroundProcess {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return {
    child,
    output: () => output,
    waitForOutput(pattern, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        // Re-checked on whatever either stream prints: a line on stderr counts as one on stdout does.
        const streams = [child.stdout!, child.stderr!];
        const stop = () => {
          clearTimeout(timer);
          for (const stream of streams) stream.off('data', check);
        };
        const check = () => {
          const match = pattern.exec(output);
          if (!match) return false;
          stop();
          resolve(match);
          return true;
        };
        // A deadline, not a wait: it only ends a wait for output that never came.
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`the playground did not print ${pattern} within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        if (!check()) for (const stream of streams) stream.on('data', check);
      });
    },
  };
}
