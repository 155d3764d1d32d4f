import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';

// `npm run playground -- send …` answers in milliseconds; a build first took 10-13 s every time.
const CLI = path.join(ROOT, 'dist/tools/playground/cli.js');
const LAUNCH = 'tools/launch.js';

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { PATH: process.env.PATH ?? '' } }, (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr }),
    );
  });
}

describe('npm run playground -- send', () => {
  it('runs what is built, without building first', async () => {
    const built = statSync(CLI).mtimeMs;
    const port = await closedPort();
    const sent = await run('npm', ['run', 'playground', '--', 'send', '/vote', '--control-port', String(port)], ROOT);
    // No playground runs on that port: the built send said so, and nothing was compiled.
    expect(sent.stderr).toContain(`No playground answers at 127.0.0.1:${port}`);
    expect(sent.code).toBe(1);
    expect(statSync(CLI).mtimeMs).toBe(built);
  });

  it('says when nothing is built, naming the commands that build', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bot-playground-unbuilt-'));
    try {
      mkdirSync(path.join(dir, path.dirname(LAUNCH)), { recursive: true });
      copyFileSync(path.join(ROOT, LAUNCH), path.join(dir, LAUNCH));
      const sent = await run(
        process.execPath,
        [LAUNCH, 'tools/playground/cli.js', '--built-for=send', 'send', '/vote'],
        dir,
      );
      expect(sent.code).toBe(1);
      expect(sent.stderr).toContain('Nothing is built yet');
      expect(sent.stderr).toContain('without send (it builds first)');
      expect(sent.stderr).toContain('npm run build:tools');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run bench -- --help', () => {
  it('prints the usage from what is built, building nothing and running nothing', async () => {
    const entry = path.join(ROOT, 'dist/bench/run.js');
    const built = statSync(entry).mtimeMs;
    const shown = await run('npm', ['run', 'bench', '--', '--help'], ROOT);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Usage: npm run bench');
    expect(statSync(entry).mtimeMs).toBe(built);
  });
});
