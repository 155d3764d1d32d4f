import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { asMember, buttonIds, moderator, textOf } from '../../tools/conversation.js';
import { DEFAULTS, member, nextSnowflake, textChannelIdFor, type Message } from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { CRITIC, CRITIC_REVIEW, VOTER, VOTER_REVIEW } from '../../tools/seed.js';
import { closedPort } from '../../tools/closed-port.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';
import { readUntil } from '../support/poll-until.js';

/*
 * Faults on the way to a channel: Discord failing for a while, refusing a channel, a flood, crashes
 * mid-post. Work waits in the store and goes out once, by itself, when the fault ends.
 *
 * One bot for the file: every test reads only its own reviews and voters, and puts back what it
 * changed in the stand-in. The crash test restarts the bot, so it comes last.
 */

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);
/** The audit channel is another server's: the stand-in gives each server one channel. */
const OTHER_GUILD = nextSnowflake();
const AUDIT_CHANNEL = textChannelIdFor(OTHER_GUILD);
/** The lane sends at most one post per 1.1 s (to stay under Discord's 5 per 5 s in a channel); past this, a post waits on nothing. */
const LANE_SPACING_MS = 1_200;
const CHANNEL_WINDOW_MS = 5_000;

let world: World;
/** The bot now running: the world's, until the crash test starts others. */
let bot: BotProcess;
let url: string;
let env: Record<string, string>;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await closedPort();
  const { url: webhookUrl, ...rest } = await receiverEnv({
    REVIEW_CHANNEL_ID: CHANNEL,
    VOTE_CHANNEL_ID: CHANNEL,
    // A refused channel is tried again this often (and the passes run as often; nothing here depends on them).
    EXPIRY_CHECK_SECONDS: '1',
    REVIEW_LOG_CHANNEL_ID: AUDIT_CHANNEL,
    METRICS_PORT: String(metricsPort),
  });
  url = webhookUrl;
  env = rest;
  world = await startWorld({ env, discord: { otherGuildIds: [OTHER_GUILD] } });
  bot = world.bot;
}, 30_000);
afterEach(() => {
  world.discord.failChannelMessages(null);
  world.discord.delayMemberRequests(0);
  world.discord.holdChannelMessages(false);
  world.discord.setChannelMessageLatency(0);
  world.sandbox.reset();
});
afterAll(async () => {
  if (bot !== world?.bot) await bot?.stop('SIGKILL');
  await world?.close();
  removeStoreFiles();
});

const reviewEmbeds = (reviewId: string) =>
  world.discord
    .channelMessages(CHANNEL)
    .flatMap((message) => message.embeds.map((embed) => ({ message, embed })))
    .filter(({ embed }) => embed.title?.startsWith('New review') && (embed.footer?.text ?? '').includes(reviewId));
const isVoteMessage = (m: Message) => /new votes?$/i.test(m.embeds[0]?.title ?? '');
const announcedTimes = (userId: string): number =>
  world.discord
    .channelMessages(CHANNEL)
    .filter(isVoteMessage)
    .filter((m) => textOf(m).includes(`<@${userId}>`)).length;
const channelPosts = () =>
  world.discord.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/channels/${CHANNEL}/messages`));
const review = async (id: string, authorId = VOTER) =>
  expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId }))).toBe(200);
const vote = async (userId: string) =>
  expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, userId, false, false))).toBe(200);

/** The store's work as the bot reports it at scrape time: events not yet handled, votes and reviews not yet posted. */
async function waiting(): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return Object.fromEntries(
    [...text.matchAll(/^vote_review_bot_work_waiting\{kind="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
  );
}
/** Every delivery made so far handled: routed from the inbox into the votes and reviews a lane posts. */
const inboxHandled = (what: string) =>
  readUntil(waiting, (work) => work.events === 0, { what: `${what}: no webhook event left unhandled` });

/**
 * Waits until a post to the channel would go out at once: past the lane's spacing after the newest
 * post, and with room in the channel's bucket (Discord's 5 per 5 s, which earlier tests' posts used).
 */
async function roomToPost(): Promise<void> {
  for (;;) {
    const now = performance.timeOrigin + performance.now();
    const posts = channelPosts();
    const recent = posts.filter((r) => r.at > now - CHANNEL_WINDOW_MS);
    const wait = Math.max(
      (posts.at(-1)?.at ?? 0) + LANE_SPACING_MS - now,
      recent.length >= 5 ? recent[recent.length - 5]!.at + CHANNEL_WINDOW_MS - now : 0,
    );
    if (wait <= 0) return;
    // Both are schedules inside the bot and discord.js, with no setting and no event at their end: only their rest is waited out.
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

describe('a gateway slow to answer member lookups', () => {
  it('holds no review back for names: each goes out with the names known, and later posts show the rest', async () => {
    world.discord.delayMemberRequests(3_000);
    const authors = Array.from({ length: 4 }, (_, i) => member({ username: `author${i}` }));
    world.discord.addMembers(authors);
    const answeredBefore = world.discord.memberRequestsAnswered;
    const ids: string[] = [];
    const delivered: number[] = [];
    for (const author of authors) {
      // Past the lane's spacing between posts and the channel's limit, so each waits on nothing but its names.
      await roomToPost();
      const id = `rev_${nextSnowflake()}`;
      ids.push(id);
      delivered.push(Date.now());
      await review(id, author.user.id);
      await world.discord.waitUntil(() => reviewEmbeds(id).length === 1, 10_000, 'the review posted');
    }
    // Each went out before its author's lookup could be answered: the stand-in answers a lookup 3 s
    // after it is asked, and it is asked after the delivery. (A bound on what happened first, not on
    // speed: 900 ms here failed once on a busy machine for a post that waited on nothing.)
    const postedAt = ids.map((id) => channelPosts().find((r) => JSON.stringify(r.body).includes(id))!.at);
    for (const [i, at] of postedAt.entries()) expect(at - delivered[i]!).toBeLessThan(3_000);
    expect(JSON.stringify(reviewEmbeds(ids[0]!)[0]!.embed)).not.toContain('author0');

    // The lookups answer in the meantime: the first (author0's) has come back, and a command sent
    // after it on the same gateway connection is handled only once the bot read it.
    await world.discord.waitUntil(
      () => world.discord.memberRequestsAnswered > answeredBefore,
      10_000,
      "the lookup of author0's name answered",
    );
    await asMember(world.discord).command('vote', { member: VOTER }).waitForMessage();
    const again = `rev_${nextSnowflake()}`;
    await review(again, authors[0]!.user.id);
    await world.discord.waitUntil(() => reviewEmbeds(again).length === 1, 10_000, 'the review posted');
    expect(JSON.stringify(reviewEmbeds(again)[0]!.embed)).toContain('author0');
    expect(Math.max(...world.discord.memberRequestSizes)).toBeLessThanOrEqual(100);
    expect(world.discord.gatewaySendsOverLimit).toBe(0);
  }, 30_000);
});

describe('Discord failing for a while', () => {
  it('loses no review through a 500 outage, and new deliveries do not cut the backoff short', async () => {
    const failedTries = () =>
      bot.logs.filter((l) => l.msg === 'Discord did not take a post; trying again after a pause');
    const failedBefore = failedTries().length;
    const postsBefore = channelPosts().length;
    world.discord.failChannelMessages(500);
    const ids = Array.from({ length: 10 }, () => `rev_${nextSnowflake()}`);
    const outageStarted = Date.now();
    // The first delivery wakes the lane. Guilds keeps sending while Discord is down: the others come
    // during the pauses after the first two failed tries (1 s doubling, with jitter; each try's four
    // requests also wait on the channel's 5 per 5 s, so two tries already span a window).
    await review(ids[0]!);
    await bot.waitForLog(() => failedTries().length > failedBefore, 10_000, 'the first failed try');
    for (const id of ids.slice(1, 5)) await review(id);
    await bot.waitForLog(() => failedTries().length > failedBefore + 1, 15_000, 'the second failed try');
    for (const id of ids.slice(5)) await review(id);
    const postsDuringOutage = channelPosts().length - postsBefore;
    const outageMs = Date.now() - outageStarted;
    world.discord.failChannelMessages(null);
    // Backoff from 1 s doubling: a handful of tries (each up to 4 requests with discord.js's own
    // retries), not one per delivery.
    expect(postsDuringOutage).toBeLessThanOrEqual(4 * Math.ceil(Math.log2(outageMs / 500) + 1));
    await world.discord.waitUntil(
      () => ids.every((id) => reviewEmbeds(id).length === 1),
      30_000,
      'every review posted after the outage',
    );
    for (const id of ids) expect(reviewEmbeds(id)).toHaveLength(1);
    // Each try after a failure waited out the pause it logged, however many deliveries came meanwhile.
    for (const failed of failedTries().slice(failedBefore, failedBefore + 2)) {
      const failedAt = Date.parse(String(failed.time));
      const retryAt = failedAt + Number(failed.retryInMs);
      // A review's post, not a vote announcement's: those share the channel and back off on their own lane.
      const next = channelPosts().find((r) => r.at > failedAt && JSON.stringify(r.body ?? '').includes('New review'));
      // Timers may fire a few ms early against another process's clock; a pause cut short by a
      // delivery would send at once, ~0.5 s early or more (the channel's bucket has room after a try).
      expect(next).toBeDefined();
      expect(next!.at).toBeGreaterThanOrEqual(retryAt - 50);
    }
    expect(bot.logs.filter((l) => /given up/.test(String(l.msg)))).toEqual([]);
  }, 30_000);
});

describe('a channel Discord refuses', () => {
  it('parks it, says so once in the log and the audit channel, and posts by itself once fixed', async () => {
    world.discord.failChannelMessages(403, CHANNEL);
    const refusedBefore = channelPosts().filter((r) => r.status === 403).length;
    const ids = [`rev_${nextSnowflake()}`, `rev_${nextSnowflake()}`];
    for (const id of ids) await review(id);
    const parked = () => bot.logs.filter((l) => String(l.msg).startsWith('Discord refuses posts in a channel'));
    await bot.waitForLog((l) => String(l.msg).startsWith('Discord refuses posts'), 10_000, 'the refusal');
    // Two probes refused after the first try (one a second): the lane sends one at a time, so the
    // third refusal seen means the second was handled, and it said nothing more.
    await world.discord.waitUntil(
      () => channelPosts().filter((r) => r.status === 403).length >= refusedBefore + 3,
      10_000,
      'two probes refused',
    );
    expect(parked()).toHaveLength(1);
    expect(parked()[0]!.msg).toMatch(/View Channel, Send Messages and Embed Links/);
    const told = world.discord.channelMessages(AUDIT_CHANNEL);
    expect(told).toHaveLength(1);
    expect(told[0]!.content).toContain(`<#${CHANNEL}>`);
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toContain('vote_review_bot_work_parked{kind="channels"} 1');
    expect(metrics).toContain('vote_review_bot_work_waiting{kind="reviews"} 2');

    world.discord.failChannelMessages(null, CHANNEL);
    await world.discord.waitUntil(
      () => ids.every((id) => reviewEmbeds(id).length === 1),
      15_000,
      'the reviews after the fix',
    );
    await bot.waitForLog((l) => l.msg === 'Discord takes posts in the channel again; posting resumed', 5_000);
    expect(world.discord.channelMessages(AUDIT_CHANNEL)).toHaveLength(1);
  }, 30_000);
});

describe('a flood of deliveries', () => {
  it('announces every vote in a few full messages while the reviews drain, several to a message', async () => {
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
      () => voters.every((voter) => announcedTimes(voter) === 1),
      60_000,
      'every voter announced',
    );
    const votesDoneMs = Date.now() - started;
    // Reviews are still draining when the last vote is out: votes did not wait behind them.
    expect(reviews.some((id) => reviewEmbeds(id).length === 0)).toBe(true);
    const flooded = new Set(voters.map((voter) => `<@${voter}>`));
    const voteMessages = world.discord
      .channelMessages(CHANNEL)
      .filter(isVoteMessage)
      .filter((m) => [...textOf(m).matchAll(/<@\d+>/g)].some(([mention]) => flooded.has(mention)));
    expect(voteMessages.length).toBeLessThanOrEqual(Math.ceil(voters.length / 50) + 2);
    await world.discord.waitUntil(
      () => reviews.every((id) => reviewEmbeds(id).length === 1),
      60_000,
      'every review posted',
    );
    const reviewMessages = new Set(reviews.map((id) => reviewEmbeds(id)[0]!.message.id));
    expect(reviewMessages.size).toBeLessThanOrEqual(reviews.length / 5);
    for (const voter of voters) expect(announcedTimes(voter)).toBe(1);
    expect(votesDoneMs).toBeLessThan(60_000);
  }, 90_000);
});

describe('answers and shared feed posts', () => {
  it('shows a review answered when Guilds reported the reply before the review itself', async () => {
    const id = `rev_${nextSnowflake()}`;
    expect(await deliver(url, WEBHOOK_TOKEN, { event: 'reply', guildId: GUILD, authorId: null, reviewId: id })).toBe(
      200,
    );
    await bot.waitForLog((l) => l.msg === 'reply reported before its review; kept for when the review comes');
    await review(id);
    await world.discord.waitUntil(() => reviewEmbeds(id).length === 1, 10_000, 'the feed post');
    expect(reviewEmbeds(id)[0]!.embed.title).toBe('New review · answered');
  });

  it('lets a moderator answer one review of a shared post; the others stay as they were', async () => {
    world.discord.holdChannelMessages(true);
    const first = `rev_${nextSnowflake()}`;
    await review(first);
    await world.discord.waitUntil(() => world.discord.heldRequests === 1, 10_000, 'the first post on its way');
    for (const [id, authorId] of [
      [CRITIC_REVIEW, CRITIC],
      [VOTER_REVIEW, VOTER],
    ] as const)
      await review(id, authorId);
    // Both wait behind the held post, so they are claimed together once it is through.
    await inboxHandled('both reviews queued behind the held post');
    world.discord.holdChannelMessages(false);
    await world.discord.waitUntil(() => reviewEmbeds(VOTER_REVIEW).length === 1, 10_000, 'the shared post');
    const shared: Message = reviewEmbeds(VOTER_REVIEW)[0]!.message;
    expect(shared.embeds).toHaveLength(2);
    expect(buttonIds(shared)).toEqual([`review-reply:${CRITIC_REVIEW}`, `review-reply:${VOTER_REVIEW}`]);

    const mod = asMember(world.discord, moderator());
    const modal = await mod.click(shared, `review-reply:${VOTER_REVIEW}`).waitForModal();
    expect(modal.custom_id).toBe(`review-reply-submit:${VOTER_REVIEW}`);
    await mod.submitReply(shared, VOTER_REVIEW, 'Thank you for the kind words!').waitForMessage();
    await world.discord.waitUntil(
      () => reviewEmbeds(VOTER_REVIEW)[0]?.embed.title === 'New review · answered',
      10_000,
      'the shared post to show the answer',
    );
    const after = reviewEmbeds(VOTER_REVIEW)[0]!.message;
    expect(after.embeds).toHaveLength(2);
    expect(after.embeds.map((e) => e.title)).toEqual(['New review', 'New review · answered']);
    // The service got the reply for the review that was clicked, written as the guild.
    expect(world.sandbox.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toContain(
      `/v1/reviews/${encodeURIComponent(VOTER_REVIEW)}`,
    );
  });
});

describe('crashes while posting', () => {
  it('announces every voter once and posts every review once when killed between Discord making a post and the bot hearing back', async () => {
    const voters: string[] = [];
    const reviews: string[] = [];
    const deliverSome = async (count: number, withReviews: boolean) => {
      for (let i = 0; i < count; i++) {
        const voter = nextSnowflake();
        voters.push(voter);
        await vote(voter);
        if (!withReviews) continue;
        const id = `rev_${nextSnowflake()}`;
        reviews.push(id);
        await review(id);
      }
    };
    const everythingPosted = () =>
      voters.every((v) => announcedTimes(v) >= 1) && reviews.every((id) => reviewEmbeds(id).length >= 1);
    world.discord.setChannelMessageLatency(150);
    for (let round = 0; round < 3; round++) {
      // Discord makes the message and the answer never reaches the bot; meanwhile more work arrives.
      world.discord.holdChannelMessages('after-create');
      await deliverSome(5, false);
      const first = voters.slice(-5);
      // The announcement made holds the votes that had come when it was drawn: all five when they came
      // together, fewer when the machine was slow between them (the rest wait behind the held post).
      await world.discord.waitUntil(
        () => first.some((v) => announcedTimes(v) === 1) && world.discord.heldRequests > 0,
        10_000,
        `an announcement made in round ${round + 1}, its answer held`,
      );
      await deliverSome(5, true);
      // Killed with that work in the store, waiting behind the held post.
      await inboxHandled(`round ${round + 1}'s deliveries`);
      await bot.stop('SIGKILL');
      await world.discord.waitUntil(() => world.discord.heldRequests === 0, 10_000, 'the held answer dropped');
      world.discord.holdChannelMessages(false);
      bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
      await bot.waitForLog((line) => line.msg === 'ready', 15_000, 'ready after the restart');
      await world.discord.waitUntil(everythingPosted, 30_000, `everything so far posted after restart ${round + 1}`);
    }
    // Nothing is posted twice later either: the lane sends what it claimed before anything newer,
    // and votes before reviews, so a vote and a review delivered last go out after any repeat would.
    const lastVoter = nextSnowflake();
    const lastReview = `rev_${nextSnowflake()}`;
    await vote(lastVoter);
    await review(lastReview);
    voters.push(lastVoter);
    reviews.push(lastReview);
    await world.discord.waitUntil(everythingPosted, 30_000, 'the last vote and review posted');
    expect(voters.filter((v) => announcedTimes(v) !== 1)).toEqual([]);
    expect(reviews.filter((id) => reviewEmbeds(id).length !== 1)).toEqual([]);
  }, 60_000);
});
