import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { textOf } from '../../tools/conversation.js';
import {
  DEFAULTS,
  member,
  MODERATOR_PERMISSIONS,
  nextSnowflake,
  OptionType,
  slashCommand,
  textChannelIdFor,
} from '../../tools/discord-standin/index.js';
import { deliver, voteEvent } from '../../tools/guilds-webhook.js';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { sendAs } from '../../tools/list-senders/send.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { startTopggStandIn, type StandInVote, type TopggStandIn } from '../../tools/topgg-standin.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';

// Issue 51, item 3, through the built bot: with the bot stopped while Top.gg takes 50 votes, a
// restart reads all 50 back through Top.gg's API (the stand-in) into the ledger; the ones the webhook
// delivered too count and are announced once; a vote that ended while the bot was down is counted,
// not announced; and the stand-in never had to answer 429.

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);
const SECRET = 'whs_e2e_recovery_0123456789abcdefghij';
const HOUR = 3_600_000;

let topgg: TopggStandIn;
let world: World;
let env: Record<string, string>;
let url: string;
let bot: BotProcess | undefined;
beforeAll(async () => {
  topgg = await startTopggStandIn({ pageSize: 20 });
  const { url: webhookUrl, ...settings } = await receiverEnv({
    VOTE_CHANNEL_ID: CHANNEL,
    LISTING_TOPGG_SECRET: SECRET,
    LISTING_TOPGG_API_TOKEN: topgg.token,
    TOPGG_API_URL: topgg.url,
  });
  env = settings;
  url = webhookUrl;
  world = await startWorld({ env });
  await world.bot.waitForLog((l) => l.msg === 'Top.gg votes read back', 10_000, 'the read at start');
}, 30_000);
afterAll(async () => {
  await bot?.stop('SIGKILL');
  await world?.close();
  await topgg?.close();
  removeStoreFiles();
});

const announcementsOf = (userId: string) =>
  world.discord.channelMessages(CHANNEL).filter((m) => textOf(m).includes(userId));
const acceptedOn = (process: BotProcess, userId: string) =>
  process.logs.filter((l) => l.msg === 'vote accepted' && l.userId === userId && l.site === 'topgg');

/** Top.gg's webhook delivering a vote it recorded: the same created_at, as Top.gg's own id. */
const deliverAsTopgg = (vote: StandInVote) =>
  sendAs('topgg', {
    url: `${url}/topgg`,
    secret: SECRET,
    vote: { guildId: GUILD, memberId: vote.memberId, now: vote.at, lengthMs: vote.until - vote.at },
    delayScale: 0.001,
  });

describe('Top.gg votes cast while the bot was down', () => {
  it('are all read back after a restart, each counted and announced once, with no 429', async () => {
    expect((await world.bot.stop('SIGTERM')).code).toBe(0);
    const now = Date.now();
    const votes = Array.from({ length: 50 }, (_, n) => topgg.vote(nextSnowflake(), { at: now - (50 - n) * 1_000 }));
    const ended = topgg.vote(nextSnowflake(), { at: now - 11 * HOUR, lengthMs: HOUR });
    const requestsBefore = topgg.requests;

    bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
    await bot.waitForLog((l) => l.msg === 'webhook receiver listening', 15_000, 'the receiver');
    // Ten of them the webhook delivers as well, as the bot comes back: before or after the read.
    for (const vote of votes.slice(0, 10)) expect((await deliverAsTopgg(vote)).status).toBe(200);
    const read = await bot.waitForLog((l) => l.msg === 'Top.gg votes read back', 20_000, 'the read after restart');
    expect(read.read).toBe(51);
    // And five after it: the ledger has them, so each delivery is a repeat.
    for (const vote of votes.slice(40)) expect((await deliverAsTopgg(vote)).status).toBe(200);
    await bot.waitForLog(
      (l) => l.msg === 'vote already recorded; delivery ignored' && l.userId === votes.at(-1)!.memberId,
      10_000,
      'the last repeat handled',
    );

    for (const vote of votes) expect(acceptedOn(bot, vote.memberId)).toHaveLength(1);
    expect(acceptedOn(bot, ended.memberId)).toEqual([expect.objectContaining({ recovered: true, ended: true })]);
    await world.discord.waitUntil(
      () => votes.every((vote) => announcementsOf(vote.memberId).length === 1),
      15_000,
      'every vote announced',
    );
    // Every vote queued before a later Guilds vote is announced before it: then nothing more comes.
    const later = nextSnowflake();
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, later))).toBe(200);
    await world.discord.waitUntil(() => announcementsOf(later).length === 1, 10_000, 'a later vote announced');
    for (const vote of votes) expect(announcementsOf(vote.memberId)).toHaveLength(1);
    expect(announcementsOf(ended.memberId)).toEqual([]);
    const recoveredLines = votes.slice(10, 40).map((vote) =>
      textOf(announcementsOf(vote.memberId)[0]!)
        .split('\n')
        .find((line) => line.includes(vote.memberId)),
    );
    expect(recoveredLines.every((line) => line?.includes('(recovered)'))).toBe(true);

    expect(topgg.tooMany).toBe(0);
    // 51 votes at 20 a page: three pages and the empty one.
    expect(topgg.requests - requestsBefore).toBe(4);
  }, 60_000);

  it('/vote asks Top.gg for a running vote the ledger lacks, shows it and takes it in as read back', async () => {
    const voter = nextSnowflake();
    topgg.vote(voter, { at: Date.now() - 60_000 });
    const before = topgg.requests;
    const answer = await world.discord
      .sendInteraction(slashCommand({ name: 'vote', guildId: GUILD, member: member({ id: voter }) }))
      .waitForMessage(15_000);
    expect(textOf(answer)).toMatch(/\*\*Top\.gg\*\*: voted /);
    expect(topgg.requests - before).toBe(1);
    const kept = await bot!.waitForLog((l) => l.msg === 'vote accepted' && l.userId === voter, 10_000, 'kept');
    expect(kept.recovered).toBe(true);
    await world.discord.waitUntil(() => announcementsOf(voter).length === 1, 10_000, 'its announcement');
    expect(textOf(announcementsOf(voter)[0]!)).toContain('(recovered)');
  }, 30_000);

  it('parks a token Top.gg refuses after one request, shown by /setup status with the fix, never logged', async () => {
    await bot?.stop('SIGTERM');
    const refused = 'a-token-top-gg-refuses-0123456789';
    const refusedBefore = topgg.answered(401);
    bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env, LISTING_TOPGG_API_TOKEN: refused });
    const parked = await bot.waitForLog(
      (l) => l.msg?.startsWith('Top.gg refused the API token') === true,
      20_000,
      'parked',
    );
    expect(parked.status).toBe(401);
    const answer = await world.discord
      .sendInteraction(
        slashCommand({
          name: 'setup',
          guildId: GUILD,
          member: member({ permissions: MODERATOR_PERMISSIONS }),
          options: [{ name: 'status', type: OptionType.Subcommand }],
        }),
      )
      .waitForMessage(15_000);
    expect(textOf(answer)).toMatch(
      /✘ \*\*Top\.gg votes missed while down\*\*: Top\.gg refused the API token \(HTTP 401\)/,
    );
    expect(textOf(answer)).toContain('/setup listing add site:topgg api-token:');
    expect(topgg.answered(401) - refusedBefore).toBe(1);
    const log = JSON.stringify(bot.logs) + bot.stderr();
    expect(log).not.toContain(refused);
    expect(log).not.toContain(topgg.token);
  }, 60_000);
});
