import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../../tools/bot-process.js';
import { pngSize } from '../support/png.js';
import { PRODUCTION_INSTALL_DOC, productionInstall } from '../support/production-install.js';

// The production install as docs/hosting.md gives it, run in a folder of its own that holds what a
// host deploys (the built tree, the font, package.json and the lockfile) and no other node_modules
// above it; then /stats's renderer draws a picture there with what was installed. This talks to the
// npm registry (npm's cache answers what it already holds): the one test that leaves the machine.
const INSTALL_MS = 240_000;
const DEPLOYED = ['package.json', 'package-lock.json', 'assets', 'dist/src'];

/** Draws the picture /stats sends, on the stats thread as the bot does, and prints it as base64. */
const DRAW = `
import { translatorFor } from './dist/src/i18n/index.js';
import { renderStats } from './dist/src/stats/render-stats.js';
import { readStats } from './dist/src/stats/stats-data.js';
const source = {
  votesPerDay: async () => Array.from({ length: 30 }, (_, i) => i % 7),
  ratingCounts: async () => [{ rating: 5, reviews: 4 }, { rating: 2, reviews: 1 }],
};
const png = await renderStats(await readStats(source, new Date(), 30), translatorFor('en-US'));
process.stdout.write(png.toString('base64'));
process.exit(0);
`;

/** npm's own settings from a test run under `npm test` (npm_config_omit and the like) stay out. */
function cleanEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        (!/^npm_/i.test(entry[0]) || /^npm_config_(cache|registry|userconfig)$/i.test(entry[0])),
    ),
  );
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: cleanEnv(), timeout: INSTALL_MS, maxBuffer: 16 * 2 ** 20 },
      (error, stdout, stderr) =>
        resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, stdout, stderr }),
    );
  });
}

describe(`the production install (${PRODUCTION_INSTALL_DOC})`, () => {
  let dir: string;

  beforeAll(() => {
    if (!existsSync(path.join(ROOT, 'dist/src/stats/render-stats.js')))
      throw new Error('dist/ is missing: run npm run build:tools first.');
    dir = mkdtempSync(path.join(tmpdir(), 'bot-production-install-'));
    for (const item of DEPLOYED) cpSync(path.join(ROOT, item), path.join(dir, item), { recursive: true });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'installs what /stats draws with: a picture comes out',
    async () => {
      const [npm, ...args] = productionInstall().split(/\s+/);
      expect(npm).toBe('npm');
      const installed = await run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], dir);
      expect(installed.stderr).not.toMatch(/npm error/);
      expect(installed.code).toBe(0);
      const drawn = await run(process.execPath, ['--input-type=module', '-e', DRAW], dir);
      expect(drawn.stderr).toBe('');
      expect(pngSize(Buffer.from(drawn.stdout, 'base64'))).toEqual({ width: 1000, height: 480 });
    },
    INSTALL_MS + 30_000,
  );
});
