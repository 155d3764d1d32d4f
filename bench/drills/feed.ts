import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { nextSnowflake, textChannelIdFor, DEFAULTS } from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { VOTER } from '../../tools/seed.js';
import { botEnvironment, startWorld, type World } from '../../tools/world.js';
import type { Drill } from './types.js';

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const reviewMessages = (world: World) =>
  world.discord.channelMessages(CHANNEL).filter((m) => m.embeds[0]?.title?.startsWith('New review'));
const voteMessages = (world: World) =>
  world.discord.channelMessages(CHANNEL).filter((m) => /new votes?$/i.test(m.embeds[0]?.title ?? ''));
/** How often each review id and each voter appears in the channel. */
function shown(world: World): { reviews: Map<string, number>; voters: Map<string, number> } {
  const reviews = new Map<string, number>();
  for (const message of reviewMessages(world))
    for (const embed of message.embeds) {
      const id = /Review ID: `?([^`\s]+)`?/.exec(embed.footer?.text ?? '')?.[1];
      if (id) reviews.set(id, (reviews.get(id) ?? 0) + 1);
    }
  const voters = new Map<string, number>();
  for (const message of voteMessages(world))
    for (const embed of message.embeds)
      for (const [, id] of (embed.description ?? '').matchAll(/<@(\d+)>/g)) voters.set(id!, (voters.get(id!) ?? 0) + 1);
  return { reviews, voters };
}

async function feedWorld(): Promise<{ world: World; url: string; env: Record<string, string> }> {
  const { url, ...env } = await receiverEnv({
    REVIEW_CHANNEL_ID: CHANNEL,
    VOTE_CHANNEL_ID: CHANNEL,
  });
  return { world: await startWorld({ env }), url, env };
}

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > until) return false;
    await sleep(50);
  }
  return true;
}

/** Discord answers 500 to every channel post for 60 s while a review arrives every 6 s. */
const discordOutage: Drill = {
  name: 'discord-500',
  async run(progress) {
    const { world, url } = await feedWorld();
    try {
      world.discord.failChannelMessages(500);
      const ids: string[] = [];
      const started = performance.now();
      for (let i = 0; i < 10; i++) {
        const id = `rev_${nextSnowflake()}`;
        ids.push(id);
        await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: VOTER }));
        await sleep(Math.max(0, started + (i + 1) * 6_000 - performance.now()));
      }
      const tries = world.discord.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).length;
      world.discord.failChannelMessages(null);
      const ended = performance.now();
      progress('discord-500: outage over; waiting for the reviews');
      await waitFor(() => ids.every((id) => shown(world).reviews.get(id) === 1), 120_000);
      const posted = ids.filter((id) => shown(world).reviews.get(id) === 1).length;
      const after = performance.now() - ended;
      return [
        {
          drill: 'Discord 500 for 60 s, 10 reviews',
          figure: 'reviews lost',
          value: String(10 - posted),
          goal: '0',
          met: posted === 10,
        },
        {
          drill: 'Discord 500 for 60 s, 10 reviews',
          figure: 'all posted after the outage in',
          value: seconds(after),
          goal: '≤ 60 s (backoff cap)',
          met: after <= 61_000,
        },
        {
          drill: 'Discord 500 for 60 s, 10 reviews',
          figure: 'post requests during the outage',
          value: String(tries),
          goal: 'backoff, not one per delivery',
          met: tries <= 4 * 8,
        },
      ];
    } finally {
      await world.close();
    }
  },
};

/** 2,500 reviews and 2,500 votes delivered in 10 s to one channel. */
const flood: Drill = {
  name: 'flood',
  async run(progress) {
    const { world, url } = await feedWorld();
    try {
      const voters = Array.from({ length: 2_500 }, () => nextSnowflake());
      const reviews = Array.from({ length: 2_500 }, () => `rev_${nextSnowflake()}`);
      const started = performance.now();
      for (let i = 0; i < 2_500; i += 50) {
        await Promise.all(
          voters
            .slice(i, i + 50)
            .flatMap((voter, j) => [
              deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter, false, false)),
              deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id: reviews[i + j]!, authorId: VOTER })),
            ]),
        );
        await sleep(Math.max(0, started + ((i + 50) / 2_500) * 10_000 - performance.now()));
      }
      const delivered = performance.now() - started;
      progress(`flood: delivered in ${seconds(delivered)}; waiting for the votes`);
      await waitFor(() => voters.every((v) => shown(world).voters.has(v)), 120_000);
      const votesAt = performance.now() - started;
      const votesShown = shown(world).voters;
      const reviewsByVotes = reviews.filter((id) => shown(world).reviews.has(id)).length;
      progress('flood: votes done; waiting for the reviews');
      await waitFor(() => reviews.every((id) => shown(world).reviews.has(id)), 600_000);
      const reviewsAt = performance.now() - started;
      const final = shown(world);
      const twice = [...final.voters.values(), ...final.reviews.values()].filter((n) => n > 1).length;
      const d = 'Flood: 2,500 reviews + 2,500 votes in 10 s, one channel';
      return [
        {
          drill: d,
          figure: 'every vote announced after',
          value: seconds(votesAt),
          goal: '≤ 60 s',
          met: votesAt <= 60_000 && votesShown.size === 2_500,
        },
        {
          drill: d,
          figure: 'vote messages',
          value: String(voteMessages(world).length),
          goal: 'as few as fit',
          met: true,
        },
        { drill: d, figure: 'reviews posted by then', value: String(reviewsByVotes), goal: 'draining', met: true },
        {
          drill: d,
          figure: 'every review posted after',
          value: seconds(reviewsAt),
          goal: "the channel's rate",
          met: final.reviews.size === 2_500,
        },
        {
          drill: d,
          figure: 'review messages',
          value: String(reviewMessages(world).length),
          goal: 'several reviews each',
          met: reviewMessages(world).length <= 2_500 / 5,
        },
        { drill: d, figure: 'shown twice', value: String(twice), goal: '0', met: twice === 0 },
      ];
    } finally {
      await world.close();
    }
  },
};

/** 10 SIGKILLs at a 150 ms Discord while votes and reviews keep coming. */
const kills: Drill = {
  name: 'kills',
  async run(progress) {
    const { world, url, env } = await feedWorld();
    let bot: BotProcess = world.bot;
    try {
      world.discord.setChannelMessageLatency(150);
      const voters: string[] = [];
      const reviews: string[] = [];
      for (let kill = 0; kill < 10; kill++) {
        const until = performance.now() + 1_500 + Math.random() * 1_500;
        while (performance.now() < until) {
          const voter = nextSnowflake();
          voters.push(voter);
          await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter, false, false));
          if (voters.length % 4 === 0) {
            const id = `rev_${nextSnowflake()}`;
            reviews.push(id);
            await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: VOTER }));
          }
          await sleep(20);
        }
        await bot.stop('SIGKILL');
        bot = startBot({ ...botEnvironment(world.discord, world.sandbox), ...env });
        await bot.waitForLog((line) => line.msg === 'ready', 15_000, 'ready');
        progress(`kills: ${kill + 1} of 10`);
      }
      await waitFor(
        () => voters.every((v) => shown(world).voters.has(v)) && reviews.every((id) => shown(world).reviews.has(id)),
        120_000,
      );
      await sleep(2_000);
      const final = shown(world);
      const twice = [...final.voters.values(), ...final.reviews.values()].filter((n) => n > 1).length;
      const lost =
        voters.filter((v) => !final.voters.has(v)).length + reviews.filter((id) => !final.reviews.has(id)).length;
      const d = `10 SIGKILLs at a 150 ms Discord, ${voters.length + reviews.length} events`;
      return [
        { drill: d, figure: 'announced or posted twice', value: String(twice), goal: '0', met: twice === 0 },
        { drill: d, figure: 'lost', value: String(lost), goal: '0', met: lost === 0 },
      ];
    } finally {
      await bot.stop('SIGKILL');
      await world.close();
      removeStoreFiles();
    }
  },
};

export const feedDrills: Drill[] = [discordOutage, flood, kills];
