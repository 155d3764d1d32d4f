import { nextSnowflake } from '../../tools/discord-standin/index.js';
import { reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import type { BenchBot } from '../bots.js';
import { label, type BenchContext, type Figures, type Scenario } from '../context.js';
import { ackLatencies, drive, percentiles } from '../load.js';
import { voteFrom, voters } from '../members.js';
import { withBot } from './with-bot.js';
import { BENCH_WEBHOOK_TOKEN, benchReceiverEnv } from '../receiver-env.js';

export const REALTIME = {
  /** Discord's REST answering channel posts this slowly while webhooks arrive. */
  slowDiscordMs: 2_000,
  hooks: 100,
  hookRate: 20,
  votes: 1_000,
  voteRate: 100,
  announceWithinMs: 60_000,
  mirrored: 200,
  serviceMs: 2_000,
} as const;
/** Guilds gives up on a delivery not answered in 5 s. */
const GUILDS_TIMEOUT_MS = 5_000;
/** Discord's per-channel window: waited out between parts so one part's posts cannot throttle the next. */
const CHANNEL_WINDOW_MS = 5_500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Guilds' webhooks into our bot and into the naive receiver a tutorial would write (post, then
 * answer): how fast the 200 comes while Discord is slow, whether a burst of votes is announced
 * whole, once and without 429s, and what `/vote` of a voter the bot already knows costs.
 */
export const realtimeScenario: Scenario = async (ctx, kind) => {
  const figures: Figures = {};
  Object.assign(figures, await answerWhileDiscordIsSlow(ctx, kind));
  await sleep(CHANNEL_WINDOW_MS);
  Object.assign(figures, await voteBurst(ctx, kind));
  await sleep(CHANNEL_WINDOW_MS);
  Object.assign(figures, await mirroredVote(ctx, kind));
  return figures;
};

/** Deliveries at a steady rate, each with Guilds' 5 s timeout; the answer times (Infinity: none in time). */
async function deliverPaced(url: string, bodies: readonly unknown[], rate: number): Promise<number[]> {
  const started = performance.now();
  return Promise.all(
    bodies.map(async (body, i) => {
      await sleep(Math.max(0, started + (i * 1000) / rate - performance.now()));
      const sentAt = performance.now();
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { authorization: BENCH_WEBHOOK_TOKEN, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(GUILDS_TIMEOUT_MS),
        });
        await response.arrayBuffer();
        return response.status === 200 ? performance.now() - sentAt : Infinity;
      } catch {
        return Infinity;
      }
    }),
  );
}

async function answerWhileDiscordIsSlow(ctx: BenchContext, kind: Parameters<Scenario>[1]): Promise<Figures> {
  ctx.sandbox.reset();
  const { url, env } = await benchReceiverEnv(ctx);
  const bodies = Array.from({ length: REALTIME.hooks }, () =>
    reviewEvent(ctx.discord.guildId, { id: `rev_${nextSnowflake()}`, authorId: nextSnowflake() }),
  );
  ctx.discord.setChannelMessageLatency(REALTIME.slowDiscordMs);
  try {
    const times = await withBot(
      ctx,
      kind,
      `webhooks, Discord at ${REALTIME.slowDiscordMs} ms`,
      () => deliverPaced(url, bodies, REALTIME.hookRate),
      'info',
      env,
    );
    const [p50, p99] = percentiles(times, [50, 99]);
    const late = times.filter((t) => !Number.isFinite(t)).length;
    ctx.progress(
      `webhooks ${label(kind)}, Discord ${REALTIME.slowDiscordMs} ms: 200 p50 ${p50!.toFixed(1)} p99 ${p99!.toFixed(1)} ms; past 5 s ${late}`,
    );
    return { 'webhook.p50': p50!, 'webhook.p99': p99!, 'webhook.late': late };
  } finally {
    ctx.discord.setChannelMessageLatency(0);
  }
}

/** Mentions per voter in the channel's messages since `from` (an index into its log). */
function mentionCounts(ctx: BenchContext, from: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of ctx.discord.channelMessages(ctx.discord.channelId).slice(from)) {
    const text = [message.content ?? '', ...message.embeds.map((e: { description?: string }) => e.description ?? '')];
    for (const match of text.join('\n').matchAll(/<@(\d{17,20})>/g))
      counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
  }
  return counts;
}

async function voteBurst(ctx: BenchContext, kind: Parameters<Scenario>[1]): Promise<Figures> {
  ctx.sandbox.reset();
  const { url, env } = await benchReceiverEnv(ctx, { VOTE_POLL_SECONDS: '0' });
  const members = Array.from({ length: REALTIME.votes }, () => nextSnowflake());
  const bodies = members.map((id) => voteEvent(ctx.discord.guildId, id));
  return withBot(
    ctx,
    kind,
    `${REALTIME.votes} vote webhooks`,
    async () => {
      const from = ctx.discord.channelMessages(ctx.discord.channelId).length;
      const limitedBefore = ctx.discord.rateLimitedRequests;
      const started = performance.now();
      const all = () => {
        const counts = mentionCounts(ctx, from);
        return members.every((id) => counts.has(id));
      };
      const sending = deliverPaced(url, bodies, REALTIME.voteRate);
      let doneAt = Infinity;
      try {
        await ctx.discord.waitUntil(all, REALTIME.announceWithinMs, 'every voter announced');
        doneAt = performance.now() - started;
      } catch {
        // Reported below as voters lost.
      }
      const answered = (await sending).filter(Number.isFinite).length;
      const counts = mentionCounts(ctx, from);
      const lost = members.filter((id) => !counts.has(id)).length;
      const twice = members.filter((id) => (counts.get(id) ?? 0) > 1).length;
      const limited = ctx.discord.rateLimitedRequests - limitedBefore;
      const messages = ctx.discord.channelMessages(ctx.discord.channelId).length - from;
      ctx.progress(
        `vote burst ${label(kind)}: all announced after ${doneAt.toFixed(0)} ms; lost ${lost}, twice ${twice}, Discord 429s ${limited}, messages ${messages}, deliveries answered in 5 s ${answered}`,
      );
      return { 'votes.allMs': doneAt, 'votes.lost': lost, 'votes.twice': twice, 'votes.429': limited };
    },
    'info',
    env,
  );
}

async function untilMirrored(bot: BenchBot, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (bot.drainLogs().some((line) => line.msg === 'vote mirror updated')) return;
    await sleep(20);
  }
  throw new Error('the vote mirror was not filled in time');
}

async function mirroredVote(ctx: BenchContext, kind: Parameters<Scenario>[1]): Promise<Figures> {
  ctx.sandbox.reset();
  const pool = voters(ctx.sandbox, REALTIME.mirrored);
  ctx.sandbox.setFault('*', { latencyMs: REALTIME.serviceMs });
  const { env } = await benchReceiverEnv(ctx, { VOTE_POLL_SECONDS: '60' });
  return withBot(
    ctx,
    kind,
    `/vote of mirrored voters, service ${REALTIME.serviceMs} ms`,
    async (bot) => {
      if (kind === 'ours') await untilMirrored(bot, REALTIME.serviceMs + 10_000);
      const before = ctx.sandbox.requestCount('getVote');
      const run = await drive(ctx.discord, bot, {
        count: REALTIME.mirrored,
        rate: 100,
        payload: (i) => voteFrom(pool[i]!),
        waitMs: 8_000,
      });
      const [p50, p99] = percentiles(ackLatencies(run.samples), [50, 99]);
      const requests = ctx.sandbox.requestCount('getVote') - before;
      ctx.progress(
        `mirrored /vote ${label(kind)}, service ${REALTIME.serviceMs} ms: ack p50 ${p50!.toFixed(1)} p99 ${p99!.toFixed(1)} ms; service requests ${requests}`,
      );
      return { 'mirror.ackP50': p50!, 'mirror.requests': requests };
    },
    'info',
    env,
  );
}
