import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { commandNames } from '../support/command-names.js';
import { InteractionResponseType, MessageFlags } from 'discord.js';
import { startBot } from '../../tools/bot-process.js';
import { buttonClick, DEFAULTS, member, slashCommand, startDiscordStandIn } from '../../tools/discord-standin/index.js';
import { closedPort } from '../../tools/closed-port.js';
import { startWorld, type World } from '../../tools/world.js';
import { VOTER } from '../../tools/seed.js';

describe('the bot process', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('logs ready within 10 s of starting, having identified once', async () => {
    const ready = world.bot.logs.find((line) => line.msg === 'ready');
    expect(ready).toMatchObject({ commands: commandNames() });
    expect(ready?.ms).toBeLessThan(10_000);
    expect(world.discord.gatewaySessions).toBe(1);
  });

  it('opens its SQLite store through node:sqlite on Node 22.13+ (better-sqlite3 on Node 20), silently', () => {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    const builtIn = major > 22 || (major === 22 && minor >= 13);
    expect(world.bot.logs.find((line) => line.msg === 'store open')).toMatchObject({
      backend: 'sqlite',
      driver: builtIn ? 'node:sqlite' : 'better-sqlite3',
    });
    // Node 22 and 24 would print an ExperimentalWarning for node:sqlite here.
    expect(world.bot.stderr()).toBe('');
  });

  it('answers a first command with the vote from the service', async () => {
    const handle = world.discord.sendInteraction(
      slashCommand({ name: 'vote', member: member(), options: [{ name: 'member', type: 6, value: VOTER }] }),
    );
    const message = await handle.waitForMessage();
    expect(handle.callbacks[0]?.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(message.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(JSON.stringify(message.embeds)).toContain(`<@${VOTER}>`);
    expect(world.sandbox.requests.filter((r) => r.route === 'getVote').at(-1)?.path).toBe(`/v1/votes/${VOTER}`);
  });

  it('refuses a button whose custom id it does not know, ephemerally', async () => {
    const first = world.discord.sendInteraction(slashCommand({ name: 'votes', member: member() }));
    const listed = await first.waitForMessage();
    const click = world.discord.sendInteraction(
      buttonClick({ customId: 'launch-rockets:1', message: listed, member: member() }),
    );
    const answer = await click.waitForMessage();
    expect(answer.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(answer.embeds[0]?.description).toMatch(/not recognised/);
  });

  it('refuses an interaction from another guild without calling the service', async () => {
    const before = world.sandbox.requestCount();
    const handle = world.discord.sendInteraction(
      slashCommand({ name: 'votes', member: member(), guildId: DEFAULTS.foreignGuildId }),
    );
    const answer = await handle.waitForMessage();
    expect(answer.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(answer.embeds[0]?.description).toMatch(/only works in the server it was set up for/);
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('answers a command sent by DM that it works only in its server, not in direct messages', async () => {
    const before = world.sandbox.requestCount();
    const handle = world.discord.sendInteraction(
      slashCommand({ name: 'votes', member: member(), directMessage: true }),
    );
    const answer = await handle.waitForMessage();
    expect(answer.embeds[0]?.title).toBe('Not in a server');
    expect(answer.embeds[0]?.description).toMatch(/only in the server it was set up for, not in direct messages/);
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('refuses a command Discord still lists but the bot no longer has', async () => {
    const handle = world.discord.sendInteraction(slashCommand({ name: 'giveaway', member: member() }));
    const answer = await handle.waitForMessage();
    expect(answer.embeds[0]?.description).toMatch(/deploy-commands/);
  });

  it('resumes after the gateway drops and keeps answering', async () => {
    world.discord.dropGateway(4000);
    await world.discord.waitForResume(1, 10_000);
    const handle = world.discord.sendInteraction(slashCommand({ name: 'votes', member: member() }));
    await handle.waitForMessage();
    expect(world.discord.resumes).toBe(1);
    expect(world.discord.gatewaySessions).toBe(1);
  });

  it('writes one log line per interaction with its id, handler, outcome and time', async () => {
    const handle = world.discord.sendInteraction(slashCommand({ name: 'votes', member: member() }));
    await handle.waitForMessage();
    const line = await world.bot.waitForLog((l) => l.msg === 'interaction handled' && l.interactionId === handle.id);
    expect(line).toMatchObject({ handler: '/votes', outcome: 'ok' });
    expect(typeof line.ms).toBe('number');
  });

  it('never writes a secret to its log', () => {
    const all = JSON.stringify(world.bot.logs) + world.bot.stderr();
    for (const secret of [world.discord.token, world.sandbox.apiKey, world.sandbox.appId])
      expect(all).not.toContain(secret);
  });
});

describe('starting and stopping', () => {
  it('finishes an interaction in flight on SIGTERM, then exits 0 within 5 s', async () => {
    const world = await startWorld();
    try {
      world.sandbox.setFault('getVote', { latencyMs: 1_000 });
      const handle = world.discord.sendInteraction(slashCommand({ name: 'vote', member: member() }));
      await world.discord.waitUntil(() => world.sandbox.requestCount('getVote') === 1, 5_000, 'the vote request');
      const exit = await world.bot.stop('SIGTERM');
      expect(handle.message()?.embeds.length).toBeGreaterThan(0);
      expect(exit.code).toBe(0);
      expect(exit.ms).toBeLessThan(5_000);
    } finally {
      await world.close();
    }
  });

  it('exits 78 (a setting to fix: the supervisor stops restarting) with a one-line reason when Discord refuses the token', async () => {
    const world = await startWorld({ ready: false, env: { DISCORD_TOKEN: 'not-the-right-token' } });
    try {
      const exit = await world.bot.exited;
      expect(exit.code).toBe(78);
      expect(world.bot.stderr().trim().split('\n')).toEqual([
        expect.stringMatching(/Discord rejected the bot token \(DISCORD_TOKEN\)/),
      ]);
      expect(world.bot.stderr()).not.toContain('not-the-right-token');
    } finally {
      await world.close();
    }
  });

  it('retries while Discord is unreachable, then exits with a clear reason', async () => {
    const port = await closedPort();
    const discord = await startDiscordStandIn();
    const bot = startBot({
      DISCORD_TOKEN: discord.token,
      DISCORD_CLIENT_ID: discord.applicationId,
      DISCORD_GUILD_ID: discord.guildId,
      DISCORD_API_URL: `http://127.0.0.1:${port}/api`,
      SERVICE_BASE_URL: 'http://127.0.0.1:9/v1',
      SERVICE_API_KEY: 'k',
      SERVICE_APP_ID: 'a',
    });
    try {
      const exit = await bot.exited;
      expect(exit.code).toBe(1);
      expect(bot.logs.filter((l) => l.msg === 'could not reach Discord; retrying').length).toBe(4);
      expect(bot.stderr().trim()).toMatch(
        new RegExp(`^Could not reach Discord at http://127.0.0.1:${port}/api after 5 attempts \\(ECONNREFUSED\\)`),
      );
    } finally {
      await bot.stop('SIGKILL');
      await discord.close();
    }
  }, 60_000);

  it('exits 78 at start naming METRICS_HOST when it is not an address', async () => {
    const bot = startBot({
      DISCORD_TOKEN: DEFAULTS.token,
      DISCORD_CLIENT_ID: DEFAULTS.applicationId,
      DISCORD_GUILD_ID: DEFAULTS.guildId,
      SERVICE_BASE_URL: 'http://127.0.0.1:9/v1',
      SERVICE_API_KEY: 'key',
      SERVICE_APP_ID: 'app',
      METRICS_PORT: '9464',
      METRICS_HOST: 'everywhere',
    });
    const exit = await bot.exited;
    expect(exit.code).toBe(78);
    expect(bot.stderr()).toMatch(/METRICS_HOST must be an IP address/);
    expect(bot.stderr().match(/^ {2}- /gm)).toHaveLength(1);
  });

  it('exits 78 listing every configuration problem when the environment is incomplete', async () => {
    const bot = startBot({ DISCORD_TOKEN: 'x', DISCORD_GUILD_ID: '220000000000000002' });
    const exit = await bot.exited;
    expect(exit.code).toBe(78);
    expect(bot.stderr()).toMatch(/DISCORD_CLIENT_ID is missing/);
    expect(bot.stderr()).toMatch(/SERVICE_API_KEY is missing/);
    expect(bot.stderr()).not.toMatch(/\n\s+at /);
  });
});
