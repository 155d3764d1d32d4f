import { afterAll, describe, expect, it } from '@jest/globals';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';
import type { LogLine } from '../../tools/bot-process.js';
import { startWorld, type World } from '../../tools/world.js';
import { countConnections } from '../support/connection-counter.js';

const LOST = 'Discord connection lost; reconnecting';
const BACK = 'Discord connection back';
const POLL_FAILED = 'could not poll the active votes; the mirror keeps its last state';
const POLL_BACK = 'vote poll works again';

let world: World | undefined;
let stopped: World | undefined;
let discord: DiscordStandIn | undefined;
let sandbox: Sandbox | undefined;
afterAll(async () => {
  await world?.bot.stop('SIGKILL');
  await stopped?.close();
  await Promise.all([discord?.close(), sandbox?.close()]);
});

const portOf = (url: string) => Number(new URL(url).port);
const count = (logs: LogLine[], msg: string, level?: number) =>
  logs.filter((line) => line.msg === msg && (level === undefined || line.level === level)).length;

describe('Discord and the service going away under a running bot', () => {
  it('log one line each per outage, with no stack trace, and one line each when they are back', async () => {
    world = await startWorld({ env: { VOTE_POLL_SECONDS: '1' } });
    const { bot } = world;
    await bot.waitForLog((line) => line.msg === 'vote mirror updated', 10_000, 'the first poll');
    const discordPort = portOf(world.discord.apiUrl);
    const sandboxPort = portOf(world.sandbox.baseUrl);
    await Promise.all([world.discord.close(), world.sandbox.close()]);

    await bot.waitForLog((line) => line.msg === LOST, 15_000, 'the lost line');
    await bot.waitForLog((line) => line.msg === POLL_FAILED, 15_000, 'the failed poll');
    // Several more reconnect attempts and polls fail (each connection is closed unanswered), and
    // each is counted as it comes.
    const attempts = await Promise.all([countConnections(discordPort), countConnections(sandboxPort)]);
    try {
      await Promise.all([
        attempts[0].waitFor(3, 30_000, 'three more attempts to reach Discord'),
        attempts[1].waitFor(3, 15_000, 'three more polls'),
      ]);
    } finally {
      await Promise.all(attempts.map((counter) => counter.close()));
    }
    expect(count(bot.logs, LOST)).toBe(1);
    expect(count(bot.logs, POLL_FAILED, 40)).toBe(1);
    const warnings = bot.logs.filter((line) => (line.level ?? 0) >= 40);
    expect(warnings.map((line) => line.msg)).toEqual(expect.arrayContaining([LOST, POLL_FAILED]));
    expect(warnings).toHaveLength(2);
    expect(JSON.stringify(warnings)).not.toContain('stack');
    expect(warnings.find((line) => line.msg === POLL_FAILED)).toMatchObject({ code: 'service_unavailable' });

    [discord, sandbox] = await Promise.all([
      startDiscordStandIn({ port: discordPort }),
      startSandbox({ port: sandboxPort }),
    ]);
    await bot.waitForLog((line) => line.msg === BACK, 30_000, 'the back line');
    await bot.waitForLog((line) => line.msg === POLL_BACK, 15_000, 'the poll working again');
    expect(count(bot.logs, BACK)).toBe(1);
    expect(count(bot.logs, POLL_BACK)).toBe(1);
  }, 60_000);

  it('log no lost line when the bot stops: its own stop is not an outage', async () => {
    stopped = await startWorld();
    const exit = await stopped.bot.stop('SIGTERM');
    expect(exit.code).toBe(0);
    expect(stopped.bot.logs.map((line) => line.msg)).toContain('stopped');
    expect(count(stopped.bot.logs, LOST)).toBe(0);
    expect(stopped.bot.logs.filter((line) => (line.level ?? 0) >= 40)).toEqual([]);
  }, 30_000);
});
