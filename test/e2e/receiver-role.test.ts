import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { startSandbox } from '../../src/sandbox/server.js';
import { hashApiKey, newApiKey } from '../../src/secrets/api-keys.js';
import { openStore } from '../../src/store/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { textOf } from '../../tools/conversation.js';
import {
  nextSnowflake,
  startDiscordStandIn,
  textChannelIdFor,
  type DiscordStandIn,
  type Message,
} from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { closedPort } from '../../tools/closed-port.js';
import { multiServerBotEnv, seedServers, voteMentions } from '../support/multi-server.js';
import { storeQuiet } from '../support/store-reads.js';

/*
 * Issue 19, item 3: the receiver runs on its own (ROLE=receiver, no Discord connection) beside a
 * bot process (ROLE=bot, no receiver) on one PostgreSQL. Deliveries for every server go to the
 * receiver; the bot learns of each at once by NOTIFY (its inbox poll is set to a minute, far
 * longer than any post below may take), and a SIGKILL of the bot mid-burst loses and repeats nothing.
 */
const SERVERS = 12;
const GUILDS = Array.from({ length: SERVERS }, () => nextSnowflake());
const FIRST = GUILDS[0]!;
const SECRETS_KEY = randomBytes(32).toString('base64');
const INBOX_POLL_SECONDS = 60;
/** Per server in the burst: a few reviews and votes, delivered 8 at a time as Guilds would. */
const BURST_REVIEWS = 2;
const BURST_VOTES = 6;
const CONCURRENCY = 8;

let postgres: TestPostgres;
let discord: DiscordStandIn;
let sandbox: Sandbox;
let databaseUrl: string;
let receiver: BotProcess;
let receiverUrl: string;
let receiverMetrics: string;
const tokens = new Map<string, string>();
/** Keys to the vote API made in the store, to look for in the receiver's log. */
const apiKeys: string[] = [];
const processes: BotProcess[] = [];

beforeAll(async () => {
  [postgres, discord, sandbox] = await Promise.all([
    startPostgres(),
    startDiscordStandIn({ guildId: FIRST, otherGuildIds: GUILDS.slice(1) }),
    startSandbox(),
  ]);
  databaseUrl = await postgres.createDatabase();
  // Every server set up as /setup leaves it: credentials, its channels and a webhook token, sealed.
  const seeded = await seedServers(
    databaseUrl,
    SECRETS_KEY,
    GUILDS.map((guildId) => ({
      guildId,
      credentials: { apiKey: sandbox.apiKey, appId: sandbox.appId },
      settings: { reviewChannelId: textChannelIdFor(guildId), voteChannelId: textChannelIdFor(guildId) },
    })),
  );
  for (const [guildId, token] of seeded) tokens.set(guildId, token);
}, 60_000);
afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  await Promise.all([discord?.close(), sandbox?.close()]);
  await postgres?.stop();
}, 30_000);

function startReceiverProcess(port: number, metricsPort: number): BotProcess {
  const child = startBot(
    {
      ROLE: 'receiver',
      DATABASE_URL: databaseUrl,
      METRICS_PORT: String(metricsPort),
      WEBHOOK_PORT: String(port),
      WEBHOOK_HOST: '127.0.0.1',
      SECRETS_KEY,
      LOG_LEVEL: 'info',
      API_ENABLED: 'true',
    },
    { script: 'receiver' },
  );
  processes.push(child);
  return child;
}

function startBotProcess(): BotProcess {
  const bot = startBot({
    ...multiServerBotEnv(discord, sandbox, SECRETS_KEY),
    DATABASE_URL: databaseUrl,
    ROLE: 'bot',
    INBOX_POLL_SECONDS: String(INBOX_POLL_SECONDS),
  });
  processes.push(bot);
  return bot;
}

const listening = (bot: BotProcess, again = false) =>
  bot.waitForLog(
    (line) => line.msg === 'listening for stored webhook events' && line.again === again,
    20_000,
    'the inbox listener',
  );

const posts = (guildId: string): Message[] => discord.channelMessages(textChannelIdFor(guildId));
const reviewPosts = (guildId: string, reviewId: string) =>
  posts(guildId).filter((m) => m.embeds[0]?.title?.startsWith('New review') && textOf(m).includes(reviewId));
const mentions = (guildId: string, userId: string) => voteMentions(discord, guildId, userId);
const everywhere = (count: (guildId: string) => number) => GUILDS.reduce((sum, g) => sum + count(g), 0);

async function send(guildId: string, body: unknown): Promise<void> {
  const status = await deliver(`${receiverUrl}/${guildId}`, tokens.get(guildId), body);
  if (status !== 200) throw new Error(`the receiver answered ${status} for ${guildId}`);
}

describe('a receiver process beside a bot process on one PostgreSQL', () => {
  let bot: BotProcess;

  it('starts the receiver with no Discord token or gateway session, and the bot with no receiver', async () => {
    const [port, metricsPort] = [await closedPort(), await closedPort()];
    receiverUrl = `http://127.0.0.1:${port}/webhook`;
    receiverMetrics = `http://127.0.0.1:${metricsPort}`;
    receiver = startReceiverProcess(port, metricsPort);
    await receiver.waitForLog((line) => line.msg?.startsWith('webhook receiver listening') ?? false, 15_000);
    expect(discord.gatewaySessions).toBe(0);

    bot = startBotProcess();
    await bot.waitForLog((line) => line.msg === 'ready', 20_000, 'the ready log line');
    await listening(bot);
    expect(discord.gatewaySessions).toBe(1);
    expect(bot.logs.some((line) => line.msg === 'webhook receiver listening')).toBe(false);
    // A token is refused as ever: the receiver reads it from the store the bot's /setup wrote.
    expect(await deliver(`${receiverUrl}/${FIRST}`, 'not-the-token-of-this-server', voteEvent(FIRST, '1'))).toBe(401);
  }, 30_000);

  it(`posts a review and a vote for each of ${SERVERS} servers in its own channel, at once, not at the ${INBOX_POLL_SECONDS} s poll`, async () => {
    const waits: number[] = [];
    await Promise.all(
      GUILDS.map(async (guildId) => {
        const reviewId = `rev_${nextSnowflake()}`;
        const voter = nextSnowflake();
        await send(guildId, reviewEvent(guildId, { id: reviewId, authorId: nextSnowflake() }));
        await send(guildId, voteEvent(guildId, voter));
        const accepted = performance.now();
        await discord.waitUntil(
          () => reviewPosts(guildId, reviewId).length > 0 && mentions(guildId, voter) > 0,
          20_000,
          `the review and vote in ${guildId}'s channel`,
        );
        waits.push(performance.now() - accepted);
        expect(reviewPosts(guildId, reviewId)).toHaveLength(1);
        expect(mentions(guildId, voter)).toBe(1);
        // Nowhere else: each server's events reach only its own channel.
        expect(everywhere((g) => reviewPosts(g, reviewId).length)).toBe(1);
        expect(everywhere((g) => mentions(g, voter))).toBe(1);
      }),
    );
    // The vote announcer gathers a burst for 0.5 s; everything else is the wake-up and the post.
    expect(Math.max(...waits)).toBeLessThan(5_000);
    process.stdout.write(
      `webhook 200 → post in the channel, slowest of ${SERVERS} servers: ${Math.round(Math.max(...waits))} ms\n`,
    );
  }, 30_000);

  it('loses nothing and posts nothing twice when the bot is SIGKILLed mid-burst and started again', async () => {
    const reviews = new Map(
      GUILDS.map((g) => [g, Array.from({ length: BURST_REVIEWS }, () => `rev_${nextSnowflake()}`)]),
    );
    const voters = new Map(GUILDS.map((g) => [g, Array.from({ length: BURST_VOTES }, () => nextSnowflake())]));
    const queue = GUILDS.flatMap((g) => [
      ...reviews.get(g)!.map((id) => [g, reviewEvent(g, { id, authorId: nextSnowflake() })] as const),
      ...voters.get(g)!.map((userId) => [g, voteEvent(g, userId)] as const),
    ]).sort(() => Math.random() - 0.5);
    const total = queue.length;
    let acknowledged = 0;
    let killed: Promise<unknown> | undefined;
    const sender = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        await send(next[0], next[1]);
        acknowledged += 1;
        if (acknowledged === Math.floor(total / 2)) killed = bot.stop('SIGKILL');
      }
    };
    // The receiver answers every delivery while the bot is dead: nothing waits on the bot.
    await Promise.all(Array.from({ length: CONCURRENCY }, sender));
    expect(acknowledged).toBe(total);
    expect(await killed).toMatchObject({ signal: 'SIGKILL' });

    bot = startBotProcess();
    await listening(bot);
    const allThere = () =>
      GUILDS.every(
        (g) =>
          reviews.get(g)!.every((id) => reviewPosts(g, id).length > 0) &&
          voters.get(g)!.every((id) => mentions(g, id) > 0),
      );
    await discord.waitUntil(allThere, 30_000, 'every review posted and every vote announced after the restart');
    // Nothing is left in the store to post: a second post of anything cannot come any more.
    await storeQuiet(databaseUrl);
    for (const g of GUILDS) {
      expect(reviews.get(g)!.filter((id) => everywhere((h) => reviewPosts(h, id).length) !== 1)).toEqual([]);
      expect(reviews.get(g)!.filter((id) => reviewPosts(g, id).length !== 1)).toEqual([]);
      expect(voters.get(g)!.filter((id) => everywhere((h) => mentions(h, id)) !== 1)).toEqual([]);
      expect(voters.get(g)!.filter((id) => mentions(g, id) !== 1)).toEqual([]);
    }
    // The receiver went on alone throughout, with nothing failing on its side.
    expect(receiver.logs.filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
  }, 60_000);

  it('answers the vote API from the ledger the bot writes, with keys from the shared store, a revoke at once', async () => {
    const voter = nextSnowflake();
    await send(FIRST, voteEvent(FIRST, voter));
    await discord.waitUntil(() => mentions(FIRST, voter) > 0, 20_000, 'the vote announced');
    const key = newApiKey();
    apiKeys.push(key);
    const root = await openStore({ kind: 'postgres', url: databaseUrl });
    try {
      const record = {
        guildId: FIRST,
        name: 'bot',
        keyHash: hashApiKey(key),
        last4: 'x',
        createdAt: 1,
        createdBy: voter,
      };
      expect(await root.addApiKey(record, 10)).toBe('added');
      const ask = () =>
        fetch(`${receiverUrl.replace(/\/webhook$/, '')}/api/v1/guilds/${FIRST}/members/${voter}/vote`, {
          headers: { authorization: `Bearer ${key}` },
        });
      const asked = await ask();
      expect(asked.status).toBe(200);
      expect(await asked.json()).toMatchObject({ voting: true, lists: [{ site: 'guilds', weight: 1 }], all_time: 1 });
      // Revoked in the store (as /setup api-key revoke in a bot process does): refused at the next request.
      await root.removeApiKey(FIRST, 'bot');
      const refused = await ask();
      await refused.arrayBuffer();
      expect(refused.status).toBe(401);
    } finally {
      await root.close();
    }
  }, 30_000);

  it('reports itself healthy and counts what it stored on /metrics, then stops on SIGTERM with exit 0', async () => {
    const health = await fetch(`${receiverMetrics}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', ready: true, role: 'receiver' });
    const metrics = await (await fetch(`${receiverMetrics}/metrics`)).text();
    const stored = Number(/^vote_review_bot_webhook_events_stored_total (\d+)$/m.exec(metrics)?.[1]);
    expect(stored).toBeGreaterThanOrEqual(SERVERS * (2 + BURST_REVIEWS + BURST_VOTES));
    expect(metrics).toMatch(/^vote_review_bot_webhook_refusals_total\{reason="token"\} 1$/m);
    expect(await receiver.stop('SIGTERM')).toMatchObject({ code: 0 });
    const logs = JSON.stringify(receiver.logs);
    for (const secret of [SECRETS_KEY, ...tokens.values(), ...apiKeys]) expect(logs).not.toContain(secret);
  }, 30_000);
});

describe('a receiver process on a SQLite file', () => {
  it('is refused with exit 78 and a message naming DATABASE_URL', async () => {
    const refused = startBot(
      { ROLE: 'receiver', WEBHOOK_PORT: String(await closedPort()), SECRETS_KEY },
      { script: 'start' },
    );
    const exit = await refused.exited;
    expect(exit.code).toBe(78);
    expect(refused.stderr()).toMatch(/DATABASE_URL must be a postgres:\/\/ URL for ROLE=receiver/);
    expect(refused.stderr()).not.toContain(SECRETS_KEY);
  });
});
