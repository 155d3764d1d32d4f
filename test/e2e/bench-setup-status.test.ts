import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Figures } from '../../bench/context.js';
import { guildIds, manyServerEnv, setUpServers } from '../../bench/scenarios/many-servers.js';
import { SETUP_STATUS, timeSetupStatus } from '../../bench/scenarios/setup-status.js';
import { withBot } from '../../bench/scenarios/with-bot.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

// The bench's /setup status timing, at the many-server scenario's set-up but with two servers: the
// first set up as the scenario sets it up (credentials, every channel, voter role), the second with
// credentials and its review channel only.
const ids = guildIds(2);
const key = randomBytes(32).toString('base64');
const dir = mkdtempSync(path.join(tmpdir(), 'bench-setup-status-'));
const file = path.join(dir, 'bot.sqlite');
let discord: DiscordStandIn;
let sandbox: Sandbox;
const measured: Figures[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  discord = await startDiscordStandIn({ otherGuildIds: ids });
  await setUpServers(file, key, ids, sandbox);
  const notes: string[] = [];
  const ctx = { discord, sandbox, progress: () => {}, note: (line: string) => notes.push(line), cpuLog: () => {} };
  await withBot(
    { ...ctx, othersPeak: 0 },
    'ours',
    '/setup status',
    async (bot) => {
      for (const guildId of ids) measured.push((await timeSetupStatus(discord, bot, guildId)).figures);
    },
    'info',
    manyServerEnv(file, key),
  );
  expect(notes).toEqual([]);
}, 60_000);
afterAll(async () => {
  await Promise.all([discord?.close(), sandbox?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('/setup status timed by the bench', () => {
  it('counts every answer that shows the fully set-up server, one after another and all at once', () => {
    const [full] = measured;
    expect(full!['setupStatus.sequential.setUp']).toBe(SETUP_STATUS.sequential);
    expect(full!['setupStatus.burst.setUp']).toBe(SETUP_STATUS.burst);
  });

  it('stamps the deferral before the status lines, both well inside 3 s', () => {
    for (const run of ['sequential', 'burst']) {
      const figure = (name: string) => measured[0]![`setupStatus.${run}.${name}`]!;
      expect(figure('ack.p50')).toBeGreaterThanOrEqual(0);
      expect(figure('shown.p50')).toBeGreaterThan(figure('ack.p50'));
      expect(figure('shown.p99')).toBeGreaterThanOrEqual(figure('shown.p50'));
      expect(figure('shown.p99')).toBeLessThan(3_000);
    }
  });

  it('does not count the status of a server with channels and voter role off as set up', () => {
    const [, partial] = measured;
    expect(partial!['setupStatus.sequential.setUp']).toBe(0);
    expect(partial!['setupStatus.burst.setUp']).toBe(0);
    expect(Number.isFinite(partial!['setupStatus.sequential.shown.p99'])).toBe(true);
  });
});
