import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the nearest folder up with package.json, from the sources or from dist/. */
export const ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, '.env.example')))
      return `${dir}${path.sep}`;
    if (path.dirname(dir) === dir) throw new Error(`no project root above ${from}`);
  }
}

export type LogLine = Record<string, unknown> & { msg?: string; level?: number };

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface BotProcess {
  readonly child: ChildProcess;
  readonly logs: LogLine[];
  readonly stderr: () => string;
  readonly exited: Promise<Exit>;
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number, what?: string): Promise<LogLine>;
  /** Sends the signal and resolves with the exit and how long it took. */
  stop(signal?: NodeJS.Signals): Promise<Exit & { ms: number }>;
}

/** The node command an npm script runs, read from package.json so a test and the script cannot drift. */
export function scriptCommand(script: string): { command: string; args: string[] } {
  const pkg = JSON.parse(readFileSync(new URL('package.json', `file://${ROOT}`), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [command, ...args] = (pkg.scripts[script] ?? '').split(/\s+/);
  if (command !== 'node') throw new Error(`the ${script} script is not a plain node command: ${pkg.scripts[script]}`);
  return { command: process.execPath, args };
}

/** The command `npm start` runs. */
export function startCommand(): { command: string; args: string[] } {
  return scriptCommand('start');
}

/** Every variable .env.example names, commented out or not, set to empty so a developer's own .env cannot leak into a test. */
export function blankedConfig(): Record<string, string> {
  return exampleLines(/^(?:#\s*)?([A-Z][A-Z0-9_]*)=/gm);
}

/** What `docker run --env-file` sets from a .env copied from .env.example: its uncommented lines, empty. */
export function envFileFromExample(): Record<string, string> {
  return exampleLines(/^([A-Z][A-Z0-9_]*)=/gm);
}

function exampleLines(line: RegExp): Record<string, string> {
  const example = readFileSync(new URL('.env.example', `file://${ROOT}`), 'utf8');
  const names = [...example.matchAll(line)].map((m) => m[1] as string);
  return Object.fromEntries(names.map((name) => [name, '']));
}

export interface StartBotOptions {
  /** The process's open-file limit (`ulimit -n`, soft and hard), as a small host would set it. */
  openFiles?: number;
  /**
   * Settings from this file alone, as `DOTENV_CONFIG_PATH=<file> npm start` reads them: none is
   * blanked or added, since dotenv leaves a variable that is already set (even empty) alone.
   */
  envFile?: string;
  /** The npm script to run instead of `start` (e.g. `receiver`, `rest-proxy`). */
  script?: string;
}

export function startBot(env: Record<string, string>, options: StartBotOptions = {}): BotProcess {
  const start = scriptCommand(options.script ?? 'start');
  // Through sh so the limit applies before Node starts; `exec` keeps child.pid the bot's own.
  const { command, args } =
    options.openFiles === undefined
      ? start
      : {
          command: '/bin/sh',
          args: ['-c', `ulimit -n ${options.openFiles} && exec "$0" "$@"`, start.command, ...start.args],
        };
  const child = spawn(command, args, {
    cwd: ROOT,
    // A store of its own unless the test names one: nothing is written into the project folder.
    env:
      options.envFile === undefined
        ? { PATH: process.env.PATH ?? '', ...blankedConfig(), DATABASE_URL: temporaryDatabaseUrl(), ...env }
        : { PATH: process.env.PATH ?? '', DOTENV_CONFIG_PATH: options.envFile, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        logs.push({ msg: line, raw: true });
      }
    }
    for (const wake of waiters) wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // 'close', not 'exit': 'exit' can come while the last log lines are still in the pipe, and a test
  // that reads the logs after it would miss them.
  const exited = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  void exited.then(() => {
    for (const wake of waiters) wake();
  });
  let isExited = false;
  void exited.then(() => (isExited = true));

  const waitForLog: BotProcess['waitForLog'] = (predicate, timeoutMs = 10_000, what = 'a log line') =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = logs.find(predicate);
        if (found) return done(() => resolve(found));
        if (isExited) done(() => reject(new Error(`bot exited before ${what}; stderr: ${stderr}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; stderr: ${stderr}`))),
        timeoutMs,
      );
      const done = (finish: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        finish();
      };
      waiters.add(check);
      check();
    });

  return {
    child,
    logs,
    stderr: () => stderr,
    exited,
    waitForLog,
    async stop(signal = 'SIGTERM') {
      const started = performance.now();
      if (!isExited) child.kill(signal);
      const exit = await exited;
      // A promise nobody awaited that failed is a bug wherever it happens: every test that stops a bot checks.
      const unhandled = logs.filter((line) => line.msg === 'unhandled rejection');
      if (unhandled.length > 0)
        throw new Error(`the bot logged ${unhandled.length} unhandled rejection(s): ${JSON.stringify(unhandled[0])}`);
      return { ...exit, ms: performance.now() - started };
    },
  };
}

/** A SQLite file in a new temporary folder, as a DATABASE_URL. */
export function temporaryDatabaseUrl(): string {
  return `file:${path.join(mkdtempSync(path.join(tmpdir(), 'bot-db-')), 'bot.sqlite')}`;
}
