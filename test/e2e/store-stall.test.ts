import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asMember, textOf } from '../../tools/conversation.js';
import {
  DEFAULTS,
  nextSnowflake,
  textChannelIdFor,
  type InteractionHandle,
} from '../../tools/discord-standin/index.js';
import { deliver, reviewEvent, voteEvent } from '../../tools/guilds-webhook.js';
import { drillFigure, drillSize } from '../../tools/drill-figure.js';
import { freezePostgres } from '../../tools/postgres-freeze.js';
import { startPostgres, type TestPostgres } from '../../tools/postgres.js';
import { receiverEnv, removeStoreFiles, WEBHOOK_TOKEN } from '../../tools/receiver-env.js';
import { VOTER } from '../../tools/seed.js';
import { startWorld, type World } from '../../tools/world.js';
import { storeQuiet } from '../support/store-reads.js';

/*
 * PostgreSQL frozen (SIGSTOP) and killed while members use the bot: every interaction is answered
 * inside Discord's 3 s, deliveries get 503 or 200 quickly, and once the database is back the work
 * it held is done by itself, with no new delivery. Full size (20 s outages, STORE_OUTAGE_MS=20000):
 * npm run bench:drills.
 */

const GUILD = DEFAULTS.guildId;
const CHANNEL = textChannelIdFor(GUILD);
const OUTAGE_MS = drillSize('STORE_OUTAGE_MS', 6_000);
const TEST_MS = 60_000 + 3 * OUTAGE_MS;

let postgres: TestPostgres;
let world: World;
let url: string;
let databaseUrl: string;

// One bot for both drills: the killed database comes back to the one the frozen one left normal.
beforeAll(async () => {
  postgres = await startPostgres({ own: true });
  if (!onRealPostgres()) return;
  const { url: webhook, ...env } = await receiverEnv({ REVIEW_CHANNEL_ID: CHANNEL, VOTE_CHANNEL_ID: CHANNEL });
  url = webhook;
  databaseUrl = await postgres.createDatabase();
  world = await startWorld({ env: { ...env, DATABASE_URL: databaseUrl, VOTE_POLL_SECONDS: '2' } });
}, 60_000);
afterAll(async () => {
  await world?.close();
  await postgres?.stop();
  removeStoreFiles();
}, 30_000);

const onRealPostgres = () => postgres.kind === 'postgres' && postgres.outage !== undefined;

/** Members use /vote, /leaderboard and /remind status; each must be answered in time, whatever it says. */
function membersAsk(): InteractionHandle[] {
  const member = asMember(world.discord);
  return [
    member.command('vote', { member: VOTER }),
    member.command('leaderboard'),
    member.subcommand('remind', 'status'),
  ];
}

async function answeredInTime(handles: readonly InteractionHandle[]): Promise<string[]> {
  const texts = await Promise.all(handles.map(async (h) => textOf(await h.waitForMessage(3_500))));
  for (const handle of handles) expect(handle.rejectedCallbacks).toEqual([]);
  return texts;
}

describe('PostgreSQL frozen', () => {
  it(
    'answers every member in time, answers deliveries within 2 s, and is normal again after the thaw',
    async () => {
      if (!onRealPostgres()) return;
      await world.bot.waitForLog((line) => line.msg === 'vote mirror updated', 10_000, 'the first poll');
      const frozen = await freezePostgres(postgres.url);
      const frozenAt = performance.now();
      let thawed = false;
      try {
        let slowestMember = 0;
        let slowestDelivery = 0;
        const stored: string[] = [];
        // Members ask and Guilds delivers, once a second, for as long as the database is frozen.
        for (let second = 0; performance.now() - frozenAt < OUTAGE_MS - 1_000; second++) {
          const asked = performance.now();
          const [vote, leaderboard, remind] = await answeredInTime(membersAsk());
          slowestMember = Math.max(slowestMember, performance.now() - asked);
          // /vote falls back to the service; the store's readers say to try again shortly.
          expect(vote).toContain(`<@${VOTER}>`);
          expect(leaderboard).toMatch(/storage is not answering; try again shortly/);
          expect(remind).toMatch(/storage is not answering; try again shortly/);
          const voter = nextSnowflake();
          const started = performance.now();
          const status = await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter));
          slowestDelivery = Math.max(slowestDelivery, performance.now() - started);
          expect([200, 503]).toContain(status);
          if (status === 200) stored.push(voter);
          // Once a second for as long as the database is frozen: the pace of the drill, not a wait for an event.
          await new Promise((resolve) =>
            setTimeout(resolve, Math.max(0, frozenAt + (second + 1) * 1_000 - performance.now())),
          );
        }
        expect(slowestDelivery).toBeLessThan(2_000);
        const polls = () => world.bot.logs.filter((line) => line.msg === 'vote mirror updated').length;
        const before = polls();
        frozen.thaw();
        thawed = true;
        const back = performance.now();
        await world.discord.waitUntil(() => polls() > before, 10_000, 'a poll after the thaw');
        const announced = (voter: string) =>
          world.discord.channelMessages(CHANNEL).filter((m) => textOf(m).includes(`<@${voter}>`)).length;
        await world.discord.waitUntil(() => stored.every((v) => announced(v) === 1), 10_000, 'stored votes announced');
        const backlogMs = performance.now() - back;
        const [, again] = await answeredInTime(membersAsk());
        expect(again).not.toMatch(/storage is not answering/);
        drillFigure('PostgreSQL frozen: slowest member answer while frozen (ms)', Math.round(slowestMember));
        drillFigure('PostgreSQL frozen: slowest delivery answer while frozen (ms)', Math.round(slowestDelivery));
        drillFigure(
          'PostgreSQL frozen: deliveries stored while frozen, all announced after the thaw in (ms)',
          `${stored.length}, ${Math.round(backlogMs)}`,
        );
      } finally {
        if (!thawed) frozen.thaw();
      }
    },
    TEST_MS,
  );
});

describe('PostgreSQL killed', () => {
  it(
    'keeps what was stored, and posts it within 10 s of the restart with no new delivery',
    async () => {
      if (!onRealPostgres()) return;
      const reviews = Array.from({ length: 8 }, () => `rev_${nextSnowflake()}`);
      const voters = Array.from({ length: 8 }, () => nextSnowflake());
      // Posts wait on Discord, so the work is in the store when the database goes.
      world.discord.holdChannelMessages(true);
      for (const id of reviews)
        expect(await deliver(url, WEBHOOK_TOKEN, reviewEvent(GUILD, { id, authorId: VOTER }))).toBe(200);
      for (const voter of voters) expect(await deliver(url, WEBHOOK_TOKEN, voteEvent(GUILD, voter))).toBe(200);
      await world.discord.waitUntil(() => world.discord.heldRequests >= 1, 10_000, 'a post on its way');
      await postgres.outage!.kill();
      world.discord.holdChannelMessages(false);
      const [vote] = await answeredInTime(membersAsk());
      expect(vote).toContain(`<@${VOTER}>`);
      // The database stays down this long: the outage's length is the drill, nothing to wait for.
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      await postgres.outage!.restart();
      const back = performance.now();
      const shown = (text: string) =>
        world.discord.channelMessages(CHANNEL).filter((m) => textOf(m).includes(text)).length;
      await world.discord.waitUntil(
        () => reviews.every((id) => shown(id) === 1) && voters.every((v) => shown(`<@${v}>`) === 1),
        10_000,
        'everything posted after the restart',
      );
      const postedMs = performance.now() - back;
      expect(postedMs).toBeLessThan(10_000);
      // Nothing is left in the store that could be posted again.
      await storeQuiet(databaseUrl);
      expect(reviews.filter((id) => shown(id) !== 1)).toEqual([]);
      expect(voters.filter((v) => shown(`<@${v}>`) !== 1)).toEqual([]);
      expect(world.bot.child.exitCode).toBeNull();
      drillFigure(
        'PostgreSQL killed: events stored before the kill, all posted after the restart in (ms)',
        `${reviews.length + voters.length}, ${Math.round(postedMs)}`,
      );
    },
    TEST_MS,
  );
});
