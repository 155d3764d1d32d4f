import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { startWorld, type World } from '../../tools/world.js';

/**
 * Starts that only an operator can mend end with 78 (sysexits' EX_CONFIG), which the systemd unit's
 * RestartPreventExitStatus stops on, and one line naming what to change: a restart every few
 * seconds would fail the same way for ever.
 */
const folder = mkdtempSync(path.join(tmpdir(), 'vote-review-bot-start-exits-'));
const started: Array<World | BotProcess> = [];
afterAll(async () => {
  await Promise.all(started.map((s) => ('bot' in s ? s.close() : s.stop('SIGKILL'))));
});

describe('a start that needs the operator', () => {
  it('exits 78 naming WEBHOOK_PORT when another process holds the port', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const world = await startWorld({
        ready: false,
        env: {
          WEBHOOK_PORT: String(port),
          WEBHOOK_HOST: '127.0.0.1',
          WEBHOOK_TOKEN: 'a-webhook-token-of-32-characters',
        },
      });
      started.push(world);
      expect(await world.bot.exited).toEqual({ code: 78, signal: null });
      expect(world.bot.stderr().trim().split('\n')).toEqual([
        `Could not receive webhooks on 127.0.0.1:${port} (EADDRINUSE): choose a free WEBHOOK_PORT (or stop what holds it), and a WEBHOOK_HOST this machine has.`,
      ]);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('exits 78 naming the file when DOTENV_CONFIG_PATH names one that is not there', async () => {
    const missing = path.join(folder, '.env.playgroud');
    const bot = startBot({}, { envFile: missing });
    started.push(bot);
    expect(await bot.exited).toEqual({ code: 78, signal: null });
    expect(bot.stderr().trim().split('\n')).toEqual([
      "The bot's configuration has 1 problem:",
      `  - DOTENV_CONFIG_PATH names ${missing}, but there is no file ${missing}`,
      'Fix the file name in DOTENV_CONFIG_PATH (or unset it to read .env), then start again.',
    ]);
    expect(bot.logs).toEqual([]);
  });

  it('names the settings file it read when settings are missing from it, not the example to copy', async () => {
    const file = path.join(folder, '.env.partial');
    writeFileSync(file, 'LOG_LEVEL=info\n');
    const bot = startBot({}, { envFile: file });
    started.push(bot);
    expect(await bot.exited).toEqual({ code: 78, signal: null });
    const lines = bot.stderr().trim().split('\n');
    expect(lines[0]).toMatch(/^The bot's configuration has \d+ problems:$/);
    expect(lines.some((line) => line.startsWith('  - DISCORD_TOKEN is missing'))).toBe(true);
    expect(lines.at(-1)).toBe(`Set these in ${file} or in the environment.`);
  });

  it('exits 78 when no SQLite driver loads (Node 20 without better-sqlite3), with what to install', async () => {
    // As on Node 20 where better-sqlite3 did not build: neither driver can be loaded.
    const preload = path.join(folder, 'no-sqlite.cjs');
    writeFileSync(
      preload,
      `const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'better-sqlite3' || request.startsWith('better-sqlite3/')) {
    throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: 'MODULE_NOT_FOUND' });
  }
  return resolve.call(this, request, ...rest);
};
const builtin = process.getBuiltinModule;
if (builtin) process.getBuiltinModule = (id) => (id === 'node:sqlite' || id === 'sqlite' ? undefined : builtin(id));
`,
    );
    const world = await startWorld({ ready: false, env: { NODE_OPTIONS: `--require ${preload}` } });
    started.push(world);
    expect(await world.bot.exited).toEqual({ code: 78, signal: null });
    expect(world.bot.stderr()).toMatch(/^No SQLite driver: .*better-sqlite3 package must be installed/);
  });
});

describe('a start with a misnamed setting', () => {
  it('warns once of each name in the settings file that is no setting, with the one it likely meant, and starts', async () => {
    const file = path.join(folder, '.env.typo');
    writeFileSync(file, 'VOTE_CHANEL_ID=123456789012345678\nREVIEW_CHANEL=1\n');
    const world = await startWorld({ env: { DOTENV_CONFIG_PATH: file } });
    started.push(world);
    const warnings = world.bot.logs.filter((line) => line.level === 40 && line.setting !== undefined);
    expect(warnings).toEqual([
      expect.objectContaining({
        setting: 'VOTE_CHANEL_ID',
        nearest: 'VOTE_CHANNEL_ID',
        msg: "VOTE_CHANEL_ID is no setting of the bot's and is ignored: did you mean VOTE_CHANNEL_ID?",
      }),
      expect.objectContaining({ setting: 'REVIEW_CHANEL' }),
    ]);
    // Before the store opens: the first thing an operator reads.
    const at = (msg: string) => world.bot.logs.findIndex((line) => line.msg === msg);
    expect(world.bot.logs.indexOf(warnings[0]!)).toBeLessThan(at('store open'));
  });
});
