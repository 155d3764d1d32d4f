import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { closedPort } from '../../tools/closed-port.js';
import { asMember, buttonIds, moderator, textOf } from '../../tools/conversation.js';
import {
  buttonClick,
  DEFAULTS,
  member,
  modalSubmit,
  nextSnowflake,
  slashCommand,
  textChannelIdFor,
  type Message,
} from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { CRITIC, CRITIC_REVIEW, NOBODY, VOTER, VOTER_REVIEW } from '../../tools/seed.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';
import { storeQuiet } from '../support/store-reads.js';

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);

afterAll(removeStoreFiles);

/** Settings that turn the real-time parts on, posting feeds in the test channel. */
const realtimeEnv = (extra: Record<string, string> = {}) =>
  receiverEnv({ REVIEW_CHANNEL_ID: CHANNEL, VOTE_CHANNEL_ID: CHANNEL, ...extra });

const feedPosts = (world: World, reviewId: string): Message[] =>
  world.discord
    .channelMessages(CHANNEL)
    .filter((m) => m.embeds[0]?.title?.startsWith('New review') && textOf(m).includes(reviewId));
const announcementsOf = (world: World, userId: string): Message[] =>
  world.discord
    .channelMessages(CHANNEL)
    .filter((m) => /new votes?$/i.test(m.embeds[0]?.title ?? '') && textOf(m).includes(`<@${userId}>`));

describe('real time: review feed, vote announcements and the vote mirror', () => {
  let world: World;
  let url: string;
  let databaseUrl: string;
  beforeAll(async () => {
    const { url: webhookUrl, ...env } = await realtimeEnv({ VOTE_POLL_SECONDS: '60' });
    url = webhookUrl;
    databaseUrl = env.DATABASE_URL!;
    world = await startWorld({ env });
    await world.bot.waitForLog((line) => line.msg === 'vote mirror updated', 10_000, 'the first poll');
  });
  afterAll(async () => {
    await world?.close();
  });

  it('posts a new review once with a Reply button; a moderator replies from it; the post shows it was answered', async () => {
    const review = reviewEvent(GUILD, { id: CRITIC_REVIEW, authorId: CRITIC, content: 'Too many **pings** @everyone' });
    world.discord.addMembers([member({ id: CRITIC, username: 'carol', nick: 'Carol' })]);
    expect(await deliver(url, WEBHOOK_TOKEN, review)).toBe(200);
    await world.discord.waitUntil(() => feedPosts(world, CRITIC_REVIEW).length === 1, 10_000, 'the feed post');
    const [post] = feedPosts(world, CRITIC_REVIEW);
    expect(buttonIds(post!)).toEqual([`review-reply:${CRITIC_REVIEW}`]);
    // The author's name from the gateway stands beside the mention, which some clients draw as an id.
    expect(post!.embeds[0]!.description).toContain(`<@${CRITIC}> (Carol)`);
    expect(post!.embeds[0]!.description).toContain('Too many \\*\\*pings\\*\\* @\u200beveryone');

    const mod = asMember(world.discord, moderator());
    const modal = await mod.click(post!, `review-reply:${CRITIC_REVIEW}`).waitForModal();
    expect(modal.custom_id).toBe(`review-reply-submit:${CRITIC_REVIEW}`);
    const postsBefore = world.sandbox.requests.filter((r) => r.method === 'POST').length;
    const submit = mod.submitReply(post!, CRITIC_REVIEW, 'Thanks, we will tone the pings down.');
    await submit.waitForMessage();

    await world.discord.waitUntil(
      () => feedPosts(world, CRITIC_REVIEW)[0]?.embeds[0]?.title === 'New review · answered',
      10_000,
      'the post to show the answer',
    );
    expect(world.sandbox.requests.filter((r) => r.method === 'POST').length - postsBefore).toBe(1);
    expect(world.sandbox.repliesTo(CRITIC_REVIEW)).toEqual([
      expect.objectContaining({ content: 'Thanks, we will tone the pings down.' }),
    ]);
    const answered = feedPosts(world, CRITIC_REVIEW);
    expect(answered).toHaveLength(1);
    expect(answered[0]!.id).toBe(post!.id);
    expect(textOf(answered[0]!)).toContain(`by <@${mod.who.user.id}>`);
  });

  it('posts a review sent three times once', async () => {
    const id = `rev_${nextSnowflake()}`;
    const review = reviewEvent(GUILD, { id, authorId: VOTER, rating: 5 });
    for (let i = 0; i < 3; i++) expect(await deliver(url, WEBHOOK_TOKEN, review)).toBe(200);
    await world.discord.waitUntil(() => feedPosts(world, id).length === 1, 10_000, 'the feed post');
    const ignored = () =>
      world.bot.logs.filter((l) => l.msg === 'review already known; delivery ignored' && l.reviewId === id);
    await world.discord.waitUntil(() => ignored().length === 2, 10_000, 'both repeats to be handled');
    expect(feedPosts(world, id)).toHaveLength(1);
  });

  it('answers a wrong token with 401 and posts nothing', async () => {
    const id = `rev_${nextSnowflake()}`;
    expect(await deliver(url, 'not-the-token', reviewEvent(GUILD, { id, authorId: VOTER }))).toBe(401);
    expect(await deliver(url, undefined, reviewEvent(GUILD, { id, authorId: VOTER }))).toBe(401);
    // A delivery after it is handled, so the refused one would have been handled by now.
    const marker = `rev_${nextSnowflake()}`;
    expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id: marker, authorId: VOTER }))).toBe(200);
    await world.discord.waitUntil(() => feedPosts(world, marker).length === 1, 10_000, 'the marker post');
    expect(feedPosts(world, id)).toEqual([]);
  });

  it('announces a vote once per period however often Guilds repeats it', async () => {
    const voter = nextSnowflake();
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter, true))).toBe(200);
    await world.discord.waitUntil(() => announcementsOf(world, voter).length === 1, 10_000, 'the announcement');
    expect(textOf(announcementsOf(world, voter)[0]!)).toContain(`<@${voter}> (Voter) voted (double vote)`);
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter, true))).toBe(200);
    expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter, false))).toBe(200);
    await world.discord.waitUntil(
      () =>
        world.bot.logs.filter(
          (l) => l.msg === 'vote already counted this period; delivery ignored' && l.userId === voter,
        ).length === 2,
      10_000,
      'both repeats to be handled',
    );
    // Nothing is left in the store to announce: a second announcement cannot come any more.
    await storeQuiet(databaseUrl);
    expect(announcementsOf(world, voter)).toHaveLength(1);
  });

  it('batches a burst of voters into few messages, each voter once, with no Discord 429', async () => {
    const voters = Array.from({ length: 30 }, () => nextSnowflake());
    const limitedBefore = world.discord.rateLimitedRequests;
    const messagesBefore = world.discord.channelMessages(CHANNEL).length;
    await Promise.all(
      voters.map(async (voter) => expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter))).toBe(200)),
    );
    await world.discord.waitUntil(
      () => voters.every((voter) => announcementsOf(world, voter).length > 0),
      20_000,
      'every voter announced',
    );
    for (const voter of voters) expect(announcementsOf(world, voter)).toHaveLength(1);
    expect(world.discord.channelMessages(CHANNEL).length - messagesBefore).toBeLessThan(voters.length / 5);
    expect(world.discord.rateLimitedRequests).toBe(limitedBefore);
  });

  it('marks a feed post answered when Guilds reports a reply to its review', async () => {
    const id = `rev_${nextSnowflake()}`;
    expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: VOTER }))).toBe(200);
    await world.discord.waitUntil(() => feedPosts(world, id).length === 1, 10_000, 'the feed post');
    expect(await deliver(url, WEBHOOK_TOKEN, { event: 'reply', guildId: GUILD, authorId: null, reviewId: id })).toBe(
      200,
    );
    await world.discord.waitUntil(
      () => feedPosts(world, id)[0]?.embeds[0]?.title === 'New review · answered',
      10_000,
      'the post to show the answer',
    );
    expect(feedPosts(world, id)).toHaveLength(1);
  });

  it('marks a feed post answered when a moderator replied through npm run interactions, another process', async () => {
    expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id: VOTER_REVIEW, authorId: VOTER }))).toBe(200);
    await world.discord.waitUntil(() => feedPosts(world, VOTER_REVIEW).length === 1, 10_000, 'the feed post');
    const endpoint = startBot(
      {
        ...botEnvironment(world.discord, world.sandbox),
        // The same settings as the gateway process, as one .env would give both.
        REVIEW_CHANNEL_ID: CHANNEL,
        VOTE_CHANNEL_ID: CHANNEL,
        DATABASE_URL: databaseUrl,
        INTERACTIONS_PORT: String(await closedPort()),
        INTERACTIONS_HOST: '127.0.0.1',
      },
      { script: 'interactions' },
    );
    try {
      const listening = await endpoint.waitForLog((line) => line.msg === 'interactions endpoint listening', 15_000);
      const at = String(listening.url);
      const mod = moderator();
      // Replied from /review's answer, not from the feed post: only the gateway process redraws that.
      const options = [{ name: 'member', type: 6, value: VOTER }];
      const review = await world.discord
        .sendInteractionHttp(at, slashCommand({ name: 'review', member: mod, options }))
        .waitForMessage();
      await world.discord
        .sendInteractionHttp(
          at,
          buttonClick({ customId: `review-reply:${VOTER_REVIEW}`, message: review, member: mod }),
        )
        .waitForModal();
      const submit = world.discord.sendInteractionHttp(
        at,
        modalSubmit({
          customId: `review-reply-submit:${VOTER_REVIEW}`,
          fields: { 'reply-content': 'Answered over HTTP' },
          selects: { 'reply-pinned': ['no'] },
          member: mod,
          message: review,
        }),
      );
      await submit.waitFor((handle) => handle.followUps().length === 1);
      await world.discord.waitUntil(
        () => feedPosts(world, VOTER_REVIEW)[0]?.embeds[0]?.title === 'New review · answered',
        15_000,
        'the feed post to show the answer',
      );
      expect(feedPosts(world, VOTER_REVIEW)).toHaveLength(1);
      expect(textOf(feedPosts(world, VOTER_REVIEW)[0]!)).toContain(`by <@${mod.user.id}>`);
    } finally {
      await endpoint.stop('SIGKILL');
    }
  });

  it('answers /vote of a voter the poll saw from the mirror, with no service request', async () => {
    const before = world.sandbox.requests.length;
    const reply = await asMember(world.discord).command('vote', { member: VOTER }).waitForMessage();
    expect(textOf(reply)).toMatch(/voted|active/i);
    expect(world.sandbox.requests.length).toBe(before);
  });

  it('checks a member the mirror does not show live, as before', async () => {
    const before = world.sandbox.requestCount('getVote');
    await asMember(world.discord).command('vote', { member: NOBODY }).waitForMessage();
    expect(world.sandbox.requestCount('getVote')).toBe(before + 1);
  });
});

describe('polling GET /votes', () => {
  it('announces a voter no webhook reported, once, and not the voters it found at its first poll', async () => {
    const { url: _url, ...env } = await realtimeEnv({ VOTE_POLL_SECONDS: '1' });
    const world = await startWorld({ env });
    try {
      await world.bot.waitForLog((line) => line.msg === 'vote mirror updated', 10_000, 'the first poll');
      const missed = nextSnowflake();
      world.sandbox.setVote(missed, 3 * 3_600_000);
      await world.discord.waitUntil(() => announcementsOf(world, missed).length === 1, 10_000, 'the announcement');
      const polls = () => world.bot.logs.filter((line) => line.msg === 'vote mirror updated').length;
      const seen = polls();
      await world.discord.waitUntil(() => polls() >= seen + 2, 10_000, 'two more polls');
      expect(announcementsOf(world, missed)).toHaveLength(1);
      expect(announcementsOf(world, VOTER)).toEqual([]);
    } finally {
      await world.close();
    }
  }, 30_000);
});

describe('a crash after the 200', () => {
  let world: World;
  let env: Record<string, string>;
  let url: string;
  /** The bot running now: the world's, or the one started after a kill. */
  let bot: BotProcess;
  beforeAll(async () => {
    ({ url, ...env } = await realtimeEnv());
    world = await startWorld({ env });
    bot = world.bot;
  });
  afterAll(async () => {
    if (bot && bot !== world?.bot) await bot.stop('SIGKILL');
    await world?.close();
  });

  it('posts the review after a restart, once, when the bot was killed before posting it', async () => {
    const id = `rev_${nextSnowflake()}`;
    world.discord.holdChannelMessages(true);
    expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: VOTER }))).toBe(200);
    await world.discord.waitUntil(() => world.discord.heldRequests === 1, 10_000, 'the post to be on its way');
    await bot.stop('SIGKILL');
    await world.discord.waitUntil(() => world.discord.heldRequests === 0, 10_000, 'the held post to be dropped');
    world.discord.holdChannelMessages(false);
    expect(feedPosts(world, id)).toEqual([]);

    bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
    await bot.waitForLog((line) => line.msg === 'ready', 15_000, 'the ready log line');
    await world.discord.waitUntil(() => feedPosts(world, id).length === 1, 10_000, 'the post after the restart');
    // Nothing is left in the store to post: a second post cannot come any more.
    await storeQuiet(env.DATABASE_URL!);
    expect(feedPosts(world, id)).toHaveLength(1);
  });

  it('shows the review once when the bot was killed after Discord made the post but before it heard back', async () => {
    const id = `rev_${nextSnowflake()}`;
    world.discord.holdChannelMessages('after-create');
    expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: VOTER }))).toBe(200);
    await world.discord.waitUntil(() => world.discord.heldRequests === 1, 10_000, 'the post to be made');
    expect(feedPosts(world, id)).toHaveLength(1);
    await bot.stop('SIGKILL');
    await world.discord.waitUntil(() => world.discord.heldRequests === 0, 10_000, 'the held answer to be dropped');
    world.discord.holdChannelMessages(false);

    bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
    await bot.waitForLog((line) => line.msg === 'review posted to the feed' && line.reviewId === id, 15_000);
    expect(feedPosts(world, id)).toHaveLength(1);
    expect(bot.logs.find((line) => line.msg === 'review posted to the feed')?.messageId).toBe(
      feedPosts(world, id)[0]!.id,
    );
  });
});
