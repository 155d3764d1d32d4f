import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { textOf } from '../../tools/conversation.js';
import {
  guildIdOnShard,
  member,
  nextSnowflake,
  MODERATOR_PERMISSIONS,
  modalSubmit,
  OptionType,
  shardOf,
  slashCommand,
  startDiscordStandIn,
  textChannelIdFor,
  type CommandOption,
  type DiscordStandIn,
  type Message,
} from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { VOTER } from '../../tools/seed.js';
import { closedPort } from '../../tools/closed-port.js';
import { handledIn, multiServerBotEnv } from '../support/multi-server.js';
import { storeQuiet } from '../support/store-reads.js';

// Two bot processes on one PostgreSQL, SHARD_COUNT=2, one shard each; 12 servers, 6 on each shard.
const SERVERS = [0, 1].flatMap((shard) => Array.from({ length: 6 }, () => guildIdOnShard(shard, 2)));
const KEYS = SERVERS.map((_, i) => ({
  apiKey: `server-${i}-api-key-${1000 + i}`,
  appId: `server-${i}-app-${2000 + i}`,
}));
const admin = member({ permissions: MODERATOR_PERMISSIONS });

let postgres: TestPostgres;
let databaseUrl: string;
let sandbox: Sandbox;
let discord: DiscordStandIn;
/** bots[n] runs shard n; receivers[n] is its webhook receiver's base URL. */
const bots: BotProcess[] = [];
/** Each process's environment, to start it again after a kill. */
const envs: Array<Record<string, string>> = [];
const receivers: string[] = [];
/** Each server's webhook token, from /setup webhook. */
const tokens = new Map<string, string>();

const ownerOf = (guildId: string) => shardOf(guildId, 2);
/** Deliveries of VOTER's vote in the server that the bot took as a repeat of one already counted. */
const repeatsIgnored = (bot: BotProcess, guildId: string) =>
  bot.logs.filter(
    (l) =>
      l.msg === 'vote already counted this period; delivery ignored' && l.guildId === guildId && l.userId === VOTER,
  ).length;
/** The log line comes after the answer: wait until the owner has logged `count` of them. */
const loggedBy = (bot: BotProcess, guildId: string, count: number, handler?: string) =>
  discord.waitUntil(() => handledIn(bot, guildId, handler) >= count, 5_000, `${count} handled in ${guildId}`);

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase();
  sandbox = await startSandbox({ ...KEYS[0]!, moreCredentials: KEYS.slice(1) });
  discord = await startDiscordStandIn({ guildId: SERVERS[0], otherGuildIds: SERVERS.slice(1), maxConcurrency: 1 });
  const secretsKey = randomBytes(32).toString('base64');
  for (const shard of [0, 1]) {
    const port = await closedPort();
    receivers.push(`http://127.0.0.1:${port}/webhook`);
    envs.push({
      ...multiServerBotEnv(discord, sandbox, secretsKey),
      DATABASE_URL: databaseUrl,
      SHARD_COUNT: '2',
      SHARD_IDS: String(shard),
      WEBHOOK_PORT: String(port),
      WEBHOOK_HOST: '127.0.0.1',
      WEBHOOK_PUBLIC_URL: 'https://bot.example.com',
      LOG_LEVEL: 'debug',
    });
    bots.push(startBot(envs[shard]!));
  }
  await Promise.all(bots.map((bot) => bot.waitForLog((line) => line.msg === 'ready', 30_000, 'the ready line')));
}, 90_000);

afterAll(async () => {
  await Promise.all(bots.map((bot) => bot.stop('SIGKILL')));
  await discord?.close();
  await sandbox?.close();
  await postgres?.stop();
}, 30_000);

function setup(guildId: string, sub: string, options: CommandOption[] = []) {
  return discord.sendInteraction(
    slashCommand({
      name: 'setup',
      guildId,
      member: admin,
      options: [{ name: sub, type: OptionType.Subcommand, options }],
    }),
  );
}

async function setUp(guildId: string, keys: { apiKey: string; appId: string }): Promise<void> {
  const modal = await setup(guildId, 'credentials').waitForModal();
  await discord
    .sendInteraction(
      modalSubmit({
        customId: modal.custom_id,
        guildId,
        member: admin,
        fields: { api_key: keys.apiKey, app_id: keys.appId },
      }),
    )
    .waitForMessage(10_000);
  for (const kind of ['review', 'votes'])
    await setup(guildId, 'channel', [
      { name: 'kind', type: OptionType.String, value: kind },
      { name: 'target', type: OptionType.Channel, value: textChannelIdFor(guildId) },
    ]).waitForMessage();
  const shown: Message = await setup(guildId, 'webhook').waitForMessage();
  const fields = shown.embeds[0]!.fields as Array<{ name: string; value: string }>;
  tokens.set(guildId, fields.find((f) => f.name === 'Token')!.value.replace(/`/g, ''));
}

const posts = (guildId: string, text: string) =>
  discord.channelMessages(textChannelIdFor(guildId)).filter((message) => textOf(message).includes(text)).length;
const announcements = (guildId: string) =>
  discord
    .channelMessages(textChannelIdFor(guildId))
    .filter((m) => /new votes?$/i.test(m.embeds[0]?.title ?? '') && textOf(m).includes(`<@${VOTER}>`)).length;

describe('two bot processes, one shard each, on one PostgreSQL', () => {
  it('connects each process on its own shard, with no shard run twice, pacing identifies across processes', () => {
    // max_concurrency 1: both shards are in one bucket, so the two processes, started together,
    // must identify 5 s apart; discord.js alone paces only the shards of one process.
    const [first, second] = discord.identifies;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(5_000);
    expect(discord.connectedShards().sort()).toEqual([0, 1]);
    expect(discord.identifies.map((record) => record.shard[0]).sort()).toEqual([0, 1]);
    expect(discord.overlappingIdentifies).toBe(0);
    expect(discord.identifyPacingViolations).toBe(0);
    for (const [shard, bot] of bots.entries())
      expect(bot.logs.find((line) => line.msg === 'ready')?.shards).toEqual({ count: 2, ids: String(shard) });
  });

  it('sets every server up through the process that owns it, and only that one', async () => {
    await Promise.all(SERVERS.map((guildId, i) => setUp(guildId, KEYS[i]!)));
    for (const guildId of SERVERS) {
      const owner = ownerOf(guildId);
      // credentials, its form, two channels and the webhook
      await loggedBy(bots[owner]!, guildId, 5);
      expect(handledIn(bots[owner]!, guildId)).toBe(5);
      expect(handledIn(bots[1 - owner]!, guildId)).toBe(0);
    }
  }, 30_000);

  it("starts each server's work (polls, announcements, roles, reminders) in its owner only", async () => {
    const started = (bot: BotProcess, guildId: string) =>
      bot.logs.filter((line) => line.msg === 'server work started' && line.guildId === guildId).length;
    for (const guildId of SERVERS) {
      const owner = ownerOf(guildId);
      await bots[owner]!.waitForLog(
        (line) => line.msg === 'server work started' && line.guildId === guildId,
        10_000,
        `${guildId}'s work in its owner`,
      );
      expect(started(bots[1 - owner]!, guildId)).toBe(0);
    }
  });

  it('answers /vote in every server from the process owning it', async () => {
    const answers = await Promise.all(
      SERVERS.map((guildId) =>
        discord.sendInteraction(slashCommand({ name: 'vote', guildId, member: member() })).waitForMessage(),
      ),
    );
    expect(answers).toHaveLength(SERVERS.length);
    for (const guildId of SERVERS) {
      const owner = ownerOf(guildId);
      await loggedBy(bots[owner]!, guildId, 1, '/vote');
      expect(handledIn(bots[owner]!, guildId, '/vote')).toBe(1);
      expect(handledIn(bots[1 - owner]!, guildId, '/vote')).toBe(0);
    }
  });

  it("posts each server's review and vote once, in its channel, from the owning process", async () => {
    const run = Math.random().toString(36).slice(2, 8);
    // Each server's receiver address is its owner's here: a receiver that is not the owner's learns
    // of tokens set later only through the store (the receiver role's work, issue 19 item 3).
    for (const guildId of SERVERS) {
      const token = tokens.get(guildId)!;
      const url = `${receivers[ownerOf(guildId)]}/${guildId}`;
      const id = `rev_${run}_${guildId.slice(-6)}`;
      expect(
        await deliver(url, token, reviewEvent(guildId, { id, authorId: VOTER, content: `Review ${run} ${guildId}` })),
      ).toBe(200);
      // Delivered twice, as Guilds does when an answer is late: one announcement all the same.
      for (let i = 0; i < 2; i++) expect(await deliver(url, token, voteEvent(guildId, VOTER))).toBe(200);
    }
    await discord.waitUntil(
      () => SERVERS.every((guildId) => posts(guildId, `Review ${run} ${guildId}`) === 1 && announcements(guildId) >= 1),
      20_000,
      'every review and vote posted',
    );
    // Each server's second delivery of the vote was handled as a repeat, and nothing is left to post.
    await discord.waitUntil(
      () => SERVERS.every((guildId) => repeatsIgnored(bots[ownerOf(guildId)]!, guildId) === 1),
      10_000,
      'each repeated vote handled as a repeat',
    );
    await storeQuiet(databaseUrl);
    for (const guildId of SERVERS) {
      expect(posts(guildId, `Review ${run} ${guildId}`)).toBe(1);
      expect(announcements(guildId)).toBe(1);
    }
    expect(discord.globalRateLimited).toBe(0);
  }, 30_000);

  it('loses and doubles nothing when one process is SIGKILLed mid-burst, while the other keeps serving', async () => {
    const voters = new Map(SERVERS.map((guildId) => [guildId, Array.from({ length: 8 }, () => nextSnowflake())]));
    const mentions = (guildId: string, userId: string) =>
      discord
        .channelMessages(textChannelIdFor(guildId))
        .reduce((sum, m) => sum + textOf(m).split(`<@${userId}>`).length - 1, 0);
    /** Delivers as Guilds does: tried again (here every 50 ms) until the receiver answers 200. */
    const deliverUntilTaken = async (guildId: string, userId: string) => {
      for (const giveUpAt = Date.now() + 30_000; ;) {
        if (Date.now() > giveUpAt) throw new Error(`no receiver took ${guildId}'s vote within 30 s`);
        const url = `${receivers[ownerOf(guildId)]}/${guildId}`;
        const status = await deliver(url, tokens.get(guildId)!, voteEvent(guildId, userId)).catch(() => 0);
        if (status === 200) return;
        // A sender polls: nothing tells it that a receiver which refused the connection is back.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const burst = SERVERS.flatMap((guildId) =>
      voters.get(guildId)!.map((userId) => () => deliverUntilTaken(guildId, userId)),
    );
    let taken = 0;
    const sending = (async () => {
      for (const send of burst) {
        await send();
        taken += 1;
      }
    })();
    await discord.waitUntil(() => taken >= burst.length / 4, 10_000, 'a quarter of the burst taken');
    await bots[1]!.stop('SIGKILL');
    expect(taken).toBeLessThan(burst.length);
    // Shard 0's servers are answered while shard 1's process is gone.
    const zero = SERVERS.filter((guildId) => ownerOf(guildId) === 0);
    const answered = await Promise.all(
      zero.map((guildId) =>
        discord.sendInteraction(slashCommand({ name: 'vote', guildId, member: member() })).waitForMessage(),
      ),
    );
    expect(answered).toHaveLength(zero.length);
    bots[1] = startBot(envs[1]!);
    await bots[1].waitForLog((line) => line.msg === 'ready', 30_000, 'the restarted process ready');
    await sending;
    const all = [...voters].flatMap(([guildId, users]) => users.map((userId) => [guildId, userId] as const));
    await discord.waitUntil(
      () => all.every(([guildId, userId]) => mentions(guildId, userId) >= 1),
      30_000,
      'every vote announced',
    );
    // Nothing is left in the store to post: a second post of anything cannot come any more.
    await storeQuiet(databaseUrl);
    expect(all.filter(([guildId, userId]) => mentions(guildId, userId) !== 1)).toEqual([]);
    expect(discord.overlappingIdentifies).toBe(0);
  }, 60_000);
});
