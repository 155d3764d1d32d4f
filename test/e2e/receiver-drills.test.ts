import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { startBot, type BotProcess, type LogLine } from '../../tools/bot-process.js';
import { textOf } from '../../tools/conversation.js';
import {
  DEFAULTS,
  nextSnowflake,
  startDiscordStandIn,
  textChannelIdFor,
  type DiscordStandIn,
  type Message,
} from '../../tools/discord-standin/index.js';
import { deliver, deliverLikeGuilds, reviewEvent, voteEvent, type GuildsAttempt } from '../../tools/guilds-webhook.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { freezePostgres } from '../../tools/postgres-freeze.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { closedPort } from '../../tools/closed-port.js';
import { holdIdleConnections, trickleBody } from '../support/stranger.js';
import { botEnvironment } from '../../tools/world.js';

/*
 * Drills against the receiver of the built bot: strangers holding connections, strangers guessing
 * the token, a body that never ends, and a PostgreSQL that stops answering. Sized for CI; the bench
 * (`npm run bench:drills -- --only=receiver`) runs them at full size: 20,000 idle connections at an
 * open-file limit of 20,000, 20,000 wrong tokens, PostgreSQL frozen for 20 s.
 */
const IDLE = { connections: 3_000, openFiles: 1_024 };
const WRONG_TOKENS = 5_000;
const FREEZE = { ms: 6_000, everyMs: 400 };
/** What the issue allows: every delivery answered (200 or 503) within 2 s, so Guilds never times out. */
const ANSWER_WITHIN_MS = 2_000;

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);
const hasPostgres = spawnSync('postgres', ['--version']).status === 0;

afterAll(removeStoreFiles);

interface DrillWorld {
  discord: DiscordStandIn;
  sandbox: Sandbox;
  bot: BotProcess;
  webhookUrl: string;
  close(): Promise<void>;
}

async function startDrillWorld(env: Record<string, string>, openFiles?: number): Promise<DrillWorld> {
  const sandbox = await startSandbox();
  const discord = await startDiscordStandIn();
  const { url, ...receiver } = await receiverEnv({ REVIEW_CHANNEL_ID: CHANNEL, VOTE_CHANNEL_ID: CHANNEL, ...env });
  const bot = startBot({ ...botEnvironment(discord, sandbox), ...receiver }, { openFiles });
  const world = {
    discord,
    sandbox,
    bot,
    webhookUrl: url,
    async close() {
      await bot.stop('SIGKILL');
      await Promise.all([discord.close(), sandbox.close()]);
    },
  };
  try {
    await bot.waitForLog((line) => line.msg === 'ready', 15_000, 'the ready log line');
  } catch (error) {
    await world.close();
    throw error;
  }
  return world;
}

const feedPosts = (discord: DiscordStandIn, reviewId: string): Message[] =>
  discord
    .channelMessages(CHANNEL)
    .filter((m) => m.embeds[0]?.title?.startsWith('New review') && textOf(m).includes(reviewId));
const announcements = (discord: DiscordStandIn, userId: string): number =>
  discord
    .channelMessages(CHANNEL)
    .filter((m) => /new votes?$/i.test(m.embeds[0]?.title ?? '') && textOf(m).includes(`<@${userId}>`)).length;
const lastOutcome = (attempts: GuildsAttempt[]) => attempts.at(-1)?.outcome;

/** GET /healthz on a new connection each time (a kept-alive one would not show whether the process can still accept). */
function probeHealthz(base: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(`${base}/healthz`, { agent: false, timeout: ANSWER_WITHIN_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

const openFilesOf = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;

// One bot for the strangers' drills: the wrong tokens come last, as that drill ends by stopping it.
let world: DrillWorld;
let healthBase: string;
beforeAll(async () => {
  const port = await closedPort();
  healthBase = `http://127.0.0.1:${port}`;
  world = await startDrillWorld({ METRICS_PORT: String(port) }, IDLE.openFiles);
});
afterAll(async () => {
  await world?.close();
});

describe(`${IDLE.connections} idle connections against a bot limited to ${IDLE.openFiles} open files`, () => {
  it('keeps /healthz answering and takes a delivery on a Guilds-like retry; the posted review shows it', async () => {
    const id = `rev_${nextSnowflake()}`;
    const idle = await holdIdleConnections(world.webhookUrl, IDLE.connections);
    try {
      const probes: Array<number | string> = [];
      let mostFiles = 0;
      const delivering = deliverLikeGuilds(
        world.webhookUrl,
        WEBHOOK_TOKEN,
        reviewEvent(GUILD, { id, authorId: nextSnowflake() }),
        { tries: 4 },
      );
      // While the flood is held: Node's old 30 s sweep would still be minutes away in these terms.
      for (let i = 0; i < 15; i++) {
        probes.push(await probeHealthz(healthBase));
        mostFiles = Math.max(mostFiles, openFilesOf(world.bot.child.pid!));
        // Samples spread over 1.5 s of the held flood: the span is the drill, no event ends it.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const attempts = await delivering;
      expect(probes).toEqual(probes.map(() => 200));
      expect(lastOutcome(attempts)).toBe(200);
      // The cap (512 by default) keeps the flood well inside the process's limit.
      expect(mostFiles).toBeLessThan(IDLE.openFiles - 100);
      await world.discord.waitUntil(() => feedPosts(world.discord, id).length === 1, 10_000, 'the review post');
    } finally {
      idle.destroy();
    }
  });

  it('answers a body slower than its declared length with 408 (or a close) within seconds', async () => {
    const outcome = await trickleBody(world.webhookUrl, WEBHOOK_TOKEN, {
      declaredBytes: 300,
      everyMs: 250,
      giveUpMs: 10_000,
    });
    expect([408, undefined]).toContain(outcome.status);
    expect(outcome.ms).toBeLessThan(5_000);
  });
});

describe(`${WRONG_TOKENS} wrong-token requests`, () => {
  it('write under 100 log lines in all, the count of them included', async () => {
    const from = world.bot.logs.length;
    const width = 50;
    const statuses: number[] = [];
    for (let start = 0; start < WRONG_TOKENS; start += width) {
      const batch = Array.from({ length: Math.min(width, WRONG_TOKENS - start) }, (_, i) =>
        deliver(world.webhookUrl, `guess-${start + i}-0000000000000`, voteEvent(GUILD, nextSnowflake())),
      );
      statuses.push(...(await Promise.all(batch)));
    }
    expect(statuses.filter((s) => s !== 401)).toEqual([]);
    // Stopping flushes what is still being counted.
    await world.bot.stop('SIGTERM');
    const lines: LogLine[] = world.bot.logs.slice(from);
    expect(lines.length).toBeLessThan(100);
    const refused = lines.filter((l) => l.reason === 'token');
    const counted = refused.reduce((sum, l) => sum + (typeof l.count === 'number' ? l.count : 1), 0);
    expect(counted).toBe(WRONG_TOKENS);
    expect(refused.length).toBeLessThanOrEqual(2);
  });
});

(hasPostgres ? describe : describe.skip)('a frozen PostgreSQL', () => {
  let postgres: TestPostgres;
  let database: string;
  let world: DrillWorld;
  beforeAll(async () => {
    postgres = await startPostgres({ own: true });
    database = await postgres.createDatabase();
    world = await startDrillWorld({ DATABASE_URL: database });
  });
  afterAll(async () => {
    await world?.close();
    await postgres?.stop();
  });

  it('gets every delivery answered 503 or 200 within 2 s; after the thaw every voter is announced once', async () => {
    const warm = nextSnowflake();
    expect(await deliver(world.webhookUrl, WEBHOOK_TOKEN, voteEvent(GUILD, warm))).toBe(200);
    await world.discord.waitUntil(() => announcements(world.discord, warm) === 1, 10_000, 'the first announcement');

    const answers: Array<{ voter: string; attempt: GuildsAttempt }> = [];
    const frozen = await freezePostgres(database);
    try {
      const started = performance.now();
      const sending: Array<Promise<void>> = [];
      while (performance.now() - started < FREEZE.ms) {
        const voter = nextSnowflake();
        sending.push(
          deliverLikeGuilds(world.webhookUrl, WEBHOOK_TOKEN, voteEvent(GUILD, voter), { tries: 1 }).then(
            ([attempt]) => {
              answers.push({ voter, attempt: attempt! });
            },
          ),
        );
        // Guilds delivers at its own pace for as long as the store is frozen: the outage's length is the drill.
        await new Promise((resolve) => setTimeout(resolve, FREEZE.everyMs));
      }
      await Promise.all(sending);
    } finally {
      frozen.thaw();
    }

    expect(answers.length).toBeGreaterThan(5);
    for (const { attempt } of answers) {
      expect([200, 503]).toContain(attempt.outcome);
      expect(attempt.ms).toBeLessThan(ANSWER_WITHIN_MS);
    }
    // Guilds retries each 503 on its schedule: with the store back, each lands.
    const retried = await Promise.all(
      answers
        .filter((a) => a.attempt.outcome === 503)
        .map((a) => deliverLikeGuilds(world.webhookUrl, WEBHOOK_TOKEN, voteEvent(GUILD, a.voter))),
    );
    expect(retried.map(lastOutcome)).toEqual(retried.map(() => 200));
    const voters = answers.map((a) => a.voter);
    await world.discord.waitUntil(
      () => voters.every((v) => announcements(world.discord, v) >= 1),
      20_000,
      'every voter announced',
    );
    expect(voters.filter((v) => announcements(world.discord, v) !== 1)).toEqual([]);
  });
});
