import { afterAll, describe, expect, it } from '@jest/globals';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { asMember, buttonIds, moderator, textOf } from '../../tools/conversation.js';
import { DEFAULTS, member, nextSnowflake, textChannelIdFor, type Message } from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { CRITIC, CRITIC_REVIEW, VOTER, VOTER_REVIEW } from '../../tools/seed.js';
import { closedPort } from '../../tools/closed-port.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';

/*
 * Faults on the way to a channel: Discord failing for a while, refusing a channel, a flood, crashes
 * mid-post. Work waits in the store and goes out once, by itself, when the fault ends.
 */

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);

afterAll(removeStoreFiles);

const feedEnv = (extra: Record<string, string> = {}) =>
  receiverEnv({ REVIEW_CHANNEL_ID: CHANNEL, VOTE_CHANNEL_ID: CHANNEL, ...extra });

const reviewEmbeds = (world: World, reviewId: string) =>
  world.discord
    .channelMessages(CHANNEL)
    .flatMap((message) => message.embeds.map((embed) => ({ message, embed })))
    .filter(({ embed }) => embed.title?.startsWith('New review') && (embed.footer?.text ?? '').includes(reviewId));
const announcedTimes = (world: World, userId: string): number =>
  world.discord
    .channelMessages(CHANNEL)
    .filter((m) => /new votes?$/i.test(m.embeds[0]?.title ?? ''))
    .filter((m) => textOf(m).includes(`<@${userId}>`)).length;
const channelPosts = (world: World) =>
  world.discord.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/channels/${CHANNEL}/messages`));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Discord failing for a while', () => {
  it('loses no review through a 500 outage, and new deliveries do not cut the backoff short', async () => {
    const { url, ...env } = await feedEnv();
    const world = await startWorld({ env });
    try {
      world.discord.failChannelMessages(500);
      const ids = Array.from({ length: 10 }, () => `rev_${nextSnowflake()}`);
      const outageStarted = Date.now();
      // 20 s of outage (the full drill in the bench is 60 s), a delivery every 2 s as Guilds would send them.
      for (const id of ids) {
        expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: VOTER }))).toBe(200);
        await sleep(2_000);
      }
      const postsDuringOutage = channelPosts(world).length;
      const outageMs = Date.now() - outageStarted;
      world.discord.failChannelMessages(null);
      // Backoff from 1 s doubling: a handful of tries (each up to 4 requests with discord.js's own
      // retries), not one per delivery.
      expect(postsDuringOutage).toBeLessThanOrEqual(4 * Math.ceil(Math.log2(outageMs / 500) + 1));
      await world.discord.waitUntil(
        () => ids.every((id) => reviewEmbeds(world, id).length === 1),
        70_000,
        'every review posted after the outage',
      );
      for (const id of ids) expect(reviewEmbeds(world, id)).toHaveLength(1);
      expect(world.bot.logs.filter((l) => /given up/.test(String(l.msg)))).toEqual([]);
    } finally {
      await world.close();
    }
  }, 120_000);
});

describe('a gateway slow to answer member lookups', () => {
  it('holds no review back for names: each goes out with the names known, and later posts show the rest', async () => {
    const { url, ...env } = await feedEnv();
    const world = await startWorld({ env });
    try {
      world.discord.delayMemberRequests(3_000);
      const authors = Array.from({ length: 4 }, (_, i) => member({ username: `author${i}` }));
      world.discord.addMembers(authors);
      const ids: string[] = [];
      const delivered: number[] = [];
      for (const author of authors) {
        const id = `rev_${nextSnowflake()}`;
        ids.push(id);
        delivered.push(Date.now());
        expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: author.user.id }))).toBe(200);
        await world.discord.waitUntil(() => reviewEmbeds(world, id).length === 1, 10_000, 'the review posted');
        // Past the lane's spacing between posts, so each waits on nothing but its names.
        await sleep(1_200);
      }
      // Each went out well before a 3 s lookup (or a 1 s wait for one) could end.
      const postedAt = ids.map((id) => channelPosts(world).find((r) => JSON.stringify(r.body).includes(id))!.at);
      for (const [i, at] of postedAt.entries()) expect(at - delivered[i]!).toBeLessThan(900);
      expect(JSON.stringify(reviewEmbeds(world, ids[0]!)[0]!.embed)).not.toContain('author0');

      // The lookups answered in the meantime: the next reviews by the same members carry their names.
      await sleep(3_500);
      const again = `rev_${nextSnowflake()}`;
      expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id: again, authorId: authors[0]!.user.id }))).toBe(
        200,
      );
      await world.discord.waitUntil(() => reviewEmbeds(world, again).length === 1, 10_000, 'the review posted');
      expect(JSON.stringify(reviewEmbeds(world, again)[0]!.embed)).toContain('author0');
      expect(Math.max(...world.discord.memberRequestSizes)).toBeLessThanOrEqual(100);
      expect(world.discord.gatewaySendsOverLimit).toBe(0);
    } finally {
      await world.close();
    }
  }, 60_000);
});

describe('a channel Discord refuses', () => {
  it('parks it, says so once in the log and the audit channel, and posts by itself once fixed', async () => {
    // The audit channel is another server's here: the stand-in gives each server one channel.
    const otherGuild = nextSnowflake();
    const auditChannel = textChannelIdFor(otherGuild);
    const metricsPort = await closedPort();
    const { url, ...env } = await feedEnv({
      EXPIRY_CHECK_SECONDS: '1',
      REVIEW_LOG_CHANNEL_ID: auditChannel,
      METRICS_PORT: String(metricsPort),
    });
    const world = await startWorld({ env, discord: { otherGuildIds: [otherGuild] } });
    try {
      world.discord.failChannelMessages(403, CHANNEL);
      const ids = [`rev_${nextSnowflake()}`, `rev_${nextSnowflake()}`];
      for (const id of ids)
        expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: VOTER }))).toBe(200);
      const parked = () => world.bot.logs.filter((l) => String(l.msg).startsWith('Discord refuses posts in a channel'));
      await world.bot.waitForLog((l) => String(l.msg).startsWith('Discord refuses posts'), 10_000, 'the refusal');
      await sleep(3_000);
      expect(parked()).toHaveLength(1);
      expect(parked()[0]!.msg).toMatch(/View Channel, Send Messages and Embed Links/);
      const told = world.discord.channelMessages(auditChannel);
      expect(told).toHaveLength(1);
      expect(told[0]!.content).toContain(`<#${CHANNEL}>`);
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toContain('vote_review_bot_work_parked{kind="channels"} 1');
      expect(metrics).toContain('vote_review_bot_work_waiting{kind="reviews"} 2');

      world.discord.failChannelMessages(null, CHANNEL);
      await world.discord.waitUntil(
        () => ids.every((id) => reviewEmbeds(world, id).length === 1),
        15_000,
        'the reviews after the fix',
      );
      await world.bot.waitForLog((l) => l.msg === 'Discord takes posts in the channel again; posting resumed', 5_000);
      expect(world.discord.channelMessages(auditChannel)).toHaveLength(1);
    } finally {
      await world.close();
    }
  }, 60_000);
});

describe('a flood of deliveries', () => {
  it('announces every vote in a few full messages while the reviews drain, several to a message', async () => {
    const { url, ...env } = await feedEnv();
    const world = await startWorld({ env });
    try {
      const voters = Array.from({ length: 400 }, () => nextSnowflake());
      const reviews = Array.from({ length: 120 }, () => `rev_${nextSnowflake()}`);
      const started = Date.now();
      const deliveries: Array<Promise<number>> = [];
      for (let i = 0; i < Math.max(voters.length, reviews.length); i++) {
        if (reviews[i])
          deliveries.push(deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id: reviews[i]!, authorId: CRITIC })));
        if (voters[i]) deliveries.push(deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voters[i]!, false, false)));
        if (i % 25 === 0) await Promise.all(deliveries.splice(0));
      }
      await Promise.all(deliveries);
      await world.discord.waitUntil(
        () => voters.every((voter) => announcedTimes(world, voter) === 1),
        60_000,
        'every voter announced',
      );
      const votesDoneMs = Date.now() - started;
      // Reviews are still draining when the last vote is out: votes did not wait behind them.
      expect(reviews.some((id) => reviewEmbeds(world, id).length === 0)).toBe(true);
      const voteMessages = world.discord
        .channelMessages(CHANNEL)
        .filter((m) => /new votes?$/i.test(m.embeds[0]?.title ?? ''));
      expect(voteMessages.length).toBeLessThanOrEqual(Math.ceil(voters.length / 50) + 2);
      await world.discord.waitUntil(
        () => reviews.every((id) => reviewEmbeds(world, id).length === 1),
        60_000,
        'every review posted',
      );
      const reviewMessages = new Set(reviews.map((id) => reviewEmbeds(world, id)[0]!.message.id));
      expect(reviewMessages.size).toBeLessThanOrEqual(reviews.length / 5);
      for (const voter of voters) expect(announcedTimes(world, voter)).toBe(1);
      expect(votesDoneMs).toBeLessThan(60_000);
    } finally {
      await world.close();
    }
  }, 150_000);
});

describe('crashes while posting', () => {
  it('announces every voter once and posts every review once when killed between Discord making a post and the bot hearing back', async () => {
    const { url, ...env } = await feedEnv();
    const world = await startWorld({ env });
    let bot: BotProcess = world.bot;
    const voters: string[] = [];
    const reviews: string[] = [];
    const deliverSome = async (count: number, withReviews: boolean) => {
      for (let i = 0; i < count; i++) {
        const voter = nextSnowflake();
        voters.push(voter);
        expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter, false, false))).toBe(200);
        if (!withReviews) continue;
        const id = `rev_${nextSnowflake()}`;
        reviews.push(id);
        expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: VOTER }))).toBe(200);
      }
    };
    try {
      world.discord.setChannelMessageLatency(150);
      for (let round = 0; round < 3; round++) {
        // Discord makes the message and the answer never reaches the bot; meanwhile more work arrives.
        world.discord.holdChannelMessages('after-create');
        await deliverSome(5, false);
        const first = voters.slice(-5);
        await world.discord.waitUntil(
          () => first.every((v) => announcedTimes(world, v) === 1),
          10_000,
          `an announcement made in round ${round + 1}, its answer held`,
        );
        await deliverSome(5, true);
        await sleep(700);
        await bot.stop('SIGKILL');
        await world.discord.waitUntil(() => world.discord.heldRequests === 0, 10_000, 'the held answer dropped');
        world.discord.holdChannelMessages(false);
        bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
        await bot.waitForLog((line) => line.msg === 'ready', 15_000, 'ready after the restart');
        await world.discord.waitUntil(
          () =>
            voters.every((v) => announcedTimes(world, v) >= 1) &&
            reviews.every((id) => reviewEmbeds(world, id).length >= 1),
          30_000,
          `everything so far posted after restart ${round + 1}`,
        );
      }
      await sleep(2_000);
      expect(voters.filter((v) => announcedTimes(world, v) !== 1)).toEqual([]);
      expect(reviews.filter((id) => reviewEmbeds(world, id).length !== 1)).toEqual([]);
    } finally {
      await bot.stop('SIGKILL');
      await world.close();
    }
  }, 120_000);
});

describe('answers and shared feed posts', () => {
  let world: World;
  let url: string;
  afterAll(async () => {
    await world?.close();
  });

  it('shows a review answered when Guilds reported the reply before the review itself', async () => {
    const { url: webhookUrl, ...env } = await feedEnv();
    url = webhookUrl;
    world = await startWorld({ env });
    const id = `rev_${nextSnowflake()}`;
    expect(await deliver(url, WEBHOOK_TOKEN, { event: 'reply', guildId: GUILD, authorId: null, reviewId: id })).toBe(
      200,
    );
    await world.bot.waitForLog((l) => l.msg === 'reply reported before its review; kept for when the review comes');
    expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: VOTER }))).toBe(200);
    await world.discord.waitUntil(() => reviewEmbeds(world, id).length === 1, 10_000, 'the feed post');
    expect(reviewEmbeds(world, id)[0]!.embed.title).toBe('New review · answered');
  });

  it('lets a moderator answer one review of a shared post; the others stay as they were', async () => {
    world.discord.holdChannelMessages(true);
    const first = `rev_${nextSnowflake()}`;
    expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id: first, authorId: VOTER }))).toBe(200);
    await world.discord.waitUntil(() => world.discord.heldRequests === 1, 10_000, 'the first post on its way');
    for (const [id, authorId] of [
      [CRITIC_REVIEW, CRITIC],
      [VOTER_REVIEW, VOTER],
    ] as const)
      expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId }))).toBe(200);
    // Both wait behind the held post, so they are claimed together once it is through.
    await sleep(500);
    world.discord.holdChannelMessages(false);
    await world.discord.waitUntil(() => reviewEmbeds(world, VOTER_REVIEW).length === 1, 10_000, 'the shared post');
    const shared: Message = reviewEmbeds(world, VOTER_REVIEW)[0]!.message;
    expect(shared.embeds).toHaveLength(2);
    expect(buttonIds(shared)).toEqual([`review-reply:${CRITIC_REVIEW}`, `review-reply:${VOTER_REVIEW}`]);

    const mod = asMember(world.discord, moderator());
    const modal = await mod.click(shared, `review-reply:${VOTER_REVIEW}`).waitForModal();
    expect(modal.custom_id).toBe(`review-reply-submit:${VOTER_REVIEW}`);
    await mod.submitReply(shared, VOTER_REVIEW, 'Thank you for the kind words!').waitForMessage();
    await world.discord.waitUntil(
      () => reviewEmbeds(world, VOTER_REVIEW)[0]?.embed.title === 'New review · answered',
      10_000,
      'the shared post to show the answer',
    );
    const after = reviewEmbeds(world, VOTER_REVIEW)[0]!.message;
    expect(after.embeds).toHaveLength(2);
    expect(after.embeds.map((e) => e.title)).toEqual(['New review', 'New review · answered']);
    // The service got the reply for the review that was clicked, written as the guild.
    expect(world.sandbox.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toContain(
      `/v1/reviews/${encodeURIComponent(VOTER_REVIEW)}`,
    );
  });
});
