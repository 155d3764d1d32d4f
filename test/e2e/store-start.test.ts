import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { openStore } from '../../src/store/index.js';
import { startBot, temporaryDatabaseUrl, type BotProcess } from '../../tools/bot-process.js';
import { startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';
import { damagePages } from '../support/sqlite-damage.js';
import { botEnvironment } from '../../tools/world.js';

/*
 * The store checked at start, and one bot per SQLite file: the built bot as `npm start` runs it,
 * against the Discord stand-in and the sandbox.
 */

let discord: DiscordStandIn;
let sandbox: Sandbox;
const bots: BotProcess[] = [];
beforeAll(async () => {
  [discord, sandbox] = await Promise.all([startDiscordStandIn(), startSandbox()]);
});
afterAll(async () => {
  await Promise.all(bots.map((bot) => bot.stop('SIGKILL')));
  await Promise.all([discord?.close(), sandbox?.close()]);
});

function start(env: Record<string, string>): BotProcess {
  const bot = startBot({ ...botEnvironment(discord, sandbox), ...env });
  bots.push(bot);
  return bot;
}

const ready = (bot: BotProcess) => bot.waitForLog((line) => line.msg === 'ready', 15_000, 'the ready log line');
const fileOf = (url: string) => url.slice('file:'.length);
/** How a start ends first: the exit, or 'ready' for a bot that came up when it should not have. */
const exitOrReady = (bot: BotProcess) =>
  Promise.race([bot.exited, bot.waitForLog((line) => line.msg === 'ready', 15_000).then(() => 'ready' as const)]);

describe('a damaged SQLite file', () => {
  it('stops the start (exit 78) with one line naming the file, DATABASE_URL and how to restore it', async () => {
    const url = temporaryDatabaseUrl();
    const store = await openStore({ kind: 'sqlite', file: fileOf(url) });
    await store.addEvent('111111111111111111', 'review', { id: 'before-the-damage' }, Date.now());
    await store.close();
    // Two pages of the tables written after the schema's own: the file still opens and migrates.
    damagePages(fileOf(url), [2, 3]);

    const bot = start({ DATABASE_URL: url });
    // Before the check, such a file ran as if healthy: ready, then a 500 for every delivery.
    expect(await exitOrReady(bot)).toEqual({ code: 78, signal: null });
    expect(bot.stderr().trim().split('\n')).toEqual([
      `The store ${fileOf(url)} (DATABASE_URL) is damaged (database disk image is malformed). Stop the bot, then put back a backup copy of ${fileOf(url)}, or move it away (with any ${fileOf(url)}-wal and ${fileOf(url)}-shm beside it) to start with an empty store.`,
    ]);
  });
});

describe('two bots on one SQLite file', () => {
  it('refuses the second (exit 1, naming DATABASE_URL); once the first is SIGKILLed a new one starts', async () => {
    const url = temporaryDatabaseUrl();
    const first = start({ DATABASE_URL: url });
    await ready(first);

    const second = start({ DATABASE_URL: url });
    expect(await exitOrReady(second)).toEqual({ code: 1, signal: null });
    expect(second.stderr().trim().split('\n')).toEqual([
      `Another process holds the store ${fileOf(url)} (DATABASE_URL): its lock ${fileOf(url)}.lock is taken. One bot runs on a SQLite file at a time: stop the other one (it may still be shutting down), or give this one its own DATABASE_URL.`,
    ]);

    const killed = await first.stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    const third = start({ DATABASE_URL: url });
    await ready(third);
    expect(third.logs.find((line) => line.msg === 'store lock held: this process is the active one')).toBeDefined();
    await third.stop('SIGTERM');
  });
});

describe('a % in the PostgreSQL password', () => {
  it('stops the start as a configuration problem naming DATABASE_URL, not "URI malformed", never showing the password', async () => {
    const bot = start({ DATABASE_URL: 'postgres://bot:50%off@127.0.0.1:9/bot' });
    const exit = await bot.exited;
    expect(exit.code).toBe(78);
    expect(bot.stderr()).toContain('DATABASE_URL has a % in its password that is not followed by two hex digits');
    expect(bot.stderr()).not.toMatch(/URI malformed/);
    expect(bot.stderr() + JSON.stringify(bot.logs)).not.toContain('50%off');
  });
});

describe('a DATABASE_URL whose folder cannot be made', () => {
  it('stops the start (exit 78) with one line naming DATABASE_URL, the folder and why', async () => {
    // A file where the folder should be: refused for root too, unlike a folder without write access.
    const blocker = fileOf(temporaryDatabaseUrl());
    writeFileSync(blocker, 'not a folder');
    const file = `${blocker}/data/bot.db`;
    const bot = start({ DATABASE_URL: `file:${file}` });
    expect(await exitOrReady(bot)).toEqual({ code: 78, signal: null });
    const lines = bot.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^Could not make the folder ${blocker}/data for the store ${file} \\(DATABASE_URL\\): part of its path is a file, not a folder \\(ENOTDIR`,
      ),
    );
    expect(lines[0]).not.toContain('The bot could not start');
  });
});
