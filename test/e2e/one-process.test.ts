import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { LOCK_APPLICATION_NAME } from '../../src/store/postgres-lock.js';
import { startBot, type BotProcess } from '../../tools/bot-process.js';
import { asMember, textOf } from '../../tools/conversation.js';
import { VOTER } from '../../tools/seed.js';
import {
  DEFAULTS,
  member,
  nextSnowflake,
  slashCommand,
  startDiscordStandIn,
  textChannelIdFor,
  type DiscordStandIn,
  type Message,
} from '../../tools/discord-standin/index.js';
import { deliverToFirstThatTakes, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { closedPort } from '../../tools/closed-port.js';
import { drillFigure, drillSize } from '../../tools/drill-figure.js';
import { botEnvironment } from '../../tools/world.js';
import { storeQuiet } from '../support/store-reads.js';

/*
 * Two bots on one PostgreSQL, as during a rolling update: the second waits as a standby while the
 * first acts, takes over when the first stops, and between them every event is handled once.
 * The drill is a 300-event burst: ONE_PROCESS_EVENTS=300 runs it at full size; the suite
 * runs 100 (10 reviews, 90 votes) to stay well inside its time.
 */
const EVENTS = drillSize('ONE_PROCESS_EVENTS', 100);
const REVIEWS = Math.max(2, Math.round(EVENTS / 10));
const VOTES = EVENTS - REVIEWS;
/** Deliveries in flight at once, as Guilds sends a burst. */
const CONCURRENCY = 8;

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);

let postgres: TestPostgres;
let discord: DiscordStandIn;
let sandbox: Sandbox;
const bots: BotProcess[] = [];

beforeAll(async () => {
  [postgres, discord, sandbox] = await Promise.all([startPostgres(), startDiscordStandIn(), startSandbox()]);
}, 60_000);
afterAll(async () => {
  await Promise.all(bots.map((bot) => bot.stop('SIGKILL')));
  await Promise.all([discord?.close(), sandbox?.close()]);
  await postgres?.stop();
  removeStoreFiles();
}, 30_000);

async function startOn(databaseUrl: string): Promise<{ bot: BotProcess; webhook: string; health: string }> {
  const { url: webhook, ...env } = await receiverEnv({ REVIEW_CHANNEL_ID: CHANNEL, VOTE_CHANNEL_ID: CHANNEL });
  const metricsPort = await closedPort();
  const bot = startBot({
    ...botEnvironment(discord, sandbox),
    ...env,
    DATABASE_URL: databaseUrl,
    METRICS_PORT: String(metricsPort),
  });
  bots.push(bot);
  return { bot, webhook, health: `http://127.0.0.1:${metricsPort}/healthz` };
}

const ready = (bot: BotProcess, timeoutMs = 15_000) =>
  bot.waitForLog((line) => line.msg === 'ready', timeoutMs, 'the ready log line');

const feedPostsOf = (reviewId: string): Message[] =>
  discord
    .channelMessages(CHANNEL)
    .filter((m) => m.embeds[0]?.title?.startsWith('New review') && textOf(m).includes(reviewId));
const mentionsOf = (userId: string): number =>
  discord
    .channelMessages(CHANNEL)
    .filter((m) => /new votes?$/i.test(m.embeds[0]?.title ?? ''))
    .reduce((sum, m) => sum + textOf(m).split(`<@${userId}>`).length - 1, 0);

describe('two bots on one PostgreSQL database', () => {
  // PGlite (where the machine has no PostgreSQL) serves every connection from one session: no lock holds there.
  const onRealPostgres = () => postgres.kind === 'postgres';

  it(`handles a ${EVENTS}-event burst once across the first one's SIGTERM; the standby serves within 10 s`, async () => {
    if (!onRealPostgres()) return;
    const databaseUrl = await postgres.createDatabase();
    const first = await startOn(databaseUrl);
    await ready(first.bot);
    const second = await startOn(databaseUrl);
    await second.bot.waitForLog((line) => String(line.msg).startsWith('standby:'), 15_000, 'the standby line');

    // The standby is well and says what it is doing; it never logged in to Discord.
    const standbyHealth = await fetch(second.health);
    expect(standbyHealth.status).toBe(200);
    expect(await standbyHealth.json()).toMatchObject({ status: 'standby', ready: false });
    expect(discord.gatewaySessions).toBe(1);

    const reviewIds = Array.from({ length: REVIEWS }, () => `rev_${nextSnowflake()}`);
    const voters = Array.from({ length: VOTES }, () => nextSnowflake());
    const events = [
      ...reviewIds.map((id) => reviewEvent(GUILD, { id, authorId: nextSnowflake() })),
      ...voters.map((userId) => voteEvent(GUILD, userId)),
    ].sort(() => Math.random() - 0.5);

    // Guilds retries a delivery nobody took; the two receivers stand behind one address, as a
    // load balancer would put them. Halfway through, the first bot is told to stop.
    let acknowledged = 0;
    const takenBySecond: number[] = [];
    let stoppedAt = 0;
    let firstExit: Promise<{ code: number | null }> | undefined;
    const queue = [...events];
    const sender = async () => {
      for (let event = queue.shift(); event; event = queue.shift()) {
        const taker = await deliverToFirstThatTakes([first.webhook, second.webhook], WEBHOOK_TOKEN, event, 30_000);
        acknowledged += 1;
        if (taker === second.webhook) takenBySecond.push(acknowledged);
        if (acknowledged === Math.floor(EVENTS / 2)) {
          stoppedAt = performance.now();
          firstExit = first.bot.stop('SIGTERM');
        }
      }
    };
    const burst = Promise.all(Array.from({ length: CONCURRENCY }, sender));

    await discord.waitUntil(() => stoppedAt > 0, 30_000, 'half the burst to be acknowledged');
    await ready(second.bot, 20_000);
    const answer = discord.sendInteraction(slashCommand({ name: 'vote', member: member() })).waitForMessage(10_000);
    await answer;
    const takeoverMs = performance.now() - stoppedAt;
    expect(takeoverMs).toBeLessThan(10_000);
    expect(await firstExit).toMatchObject({ code: 0 });
    expect(discord.gatewaySessions).toBe(2);

    await burst;
    expect(acknowledged).toBe(EVENTS);
    // The first bot took the first half; once it stopped, the rest went to the one that took over.
    expect(takenBySecond.length).toBeGreaterThan(0);
    expect(Math.min(...takenBySecond)).toBeGreaterThan(EVENTS / 2);
    await discord.waitUntil(
      () => reviewIds.every((id) => feedPostsOf(id).length > 0) && voters.every((id) => mentionsOf(id) > 0),
      60_000,
      'every review posted and every voter announced',
    );
    // Nothing is left in the store to post: a second post of anything cannot come any more.
    await storeQuiet(databaseUrl);
    expect(reviewIds.filter((id) => feedPostsOf(id).length !== 1)).toEqual([]);
    expect(voters.filter((id) => mentionsOf(id) !== 1)).toEqual([]);
    const once =
      reviewIds.filter((id) => feedPostsOf(id).length === 1).length +
      voters.filter((id) => mentionsOf(id) === 1).length;
    drillFigure(`two bots on one PostgreSQL: events shown exactly once, of ${EVENTS}`, once);
    drillFigure('two bots on one PostgreSQL: events taken by the standby after the SIGTERM', takenBySecond.length);
    drillFigure(
      "two bots on one PostgreSQL: standby answered /vote after the first's SIGTERM (ms)",
      Math.round(takeoverMs),
    );
  }, 60_000);

  /** One active bot on a database of its own, started by the first test that needs it and shared by the next. */
  let alone: { bot: BotProcess; databaseUrl: string } | undefined;
  const activeAlone = async () => {
    if (alone === undefined || alone.bot.child.exitCode !== null) {
      const databaseUrl = await postgres.createDatabase();
      const { bot } = await startOn(databaseUrl);
      await ready(bot);
      alone = { bot, databaseUrl };
    }
    return alone;
  };

  it('lets a standby stop at once on SIGTERM (exit 0): it has nothing to drain', async () => {
    if (!onRealPostgres()) return;
    const { databaseUrl } = await activeAlone();
    const standby = await startOn(databaseUrl);
    await standby.bot.waitForLog((line) => String(line.msg).startsWith('standby:'), 15_000, 'the standby line');
    const exit = await standby.bot.stop('SIGTERM');
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(standby.bot.logs.find((line) => line.msg === 'stopped before acting')).toBeDefined();
  });

  it('keeps acting when its lock session is cut and no other process takes the store: it takes the lock back', async () => {
    if (!onRealPostgres()) return;
    // The active bot of the test before, alone again now that its standby stopped.
    const { bot, databaseUrl } = await activeAlone();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
        [LOCK_APPLICATION_NAME],
      );
    } finally {
      await client.end();
    }
    await bot.waitForLog((line) => line.msg === 'store lock taken back: this process goes on acting', 10_000);
    const answer = await asMember(discord).command('vote', { member: VOTER }).waitForMessage();
    expect(textOf(answer)).toContain(`<@${VOTER}>`);
    await bot.stop('SIGTERM');
  });

  it('stops the start as a configuration problem (exit 78) when the database does not exist', async () => {
    if (!onRealPostgres()) return;
    const missing = new URL(postgres.url);
    missing.pathname = '/no_such_database';
    const { bot } = await startOn(missing.toString());
    expect((await bot.exited).code).toBe(78);
    expect(bot.stderr().trim().split('\n')).toEqual([
      expect.stringMatching(
        /^PostgreSQL at postgres:\/\/bot@127\.0\.0\.1:\d+\/no_such_database \(DATABASE_URL\): database "no_such_database" does not exist \(3D000\)\. Create the database/,
      ),
    ]);
  });
});
