import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REST } from 'discord.js';
import { discordPoster } from '../../src/bot/poster.js';
import { english } from '../../src/i18n/index.js';
import type { Logger } from '../../src/core/log.js';
import { VoterRole } from '../../src/roles/voter-role.js';
import type { ExpiryConsumer } from '../../src/schedule/expiry-consumers.js';
import { sweptSchedule } from '../support/swept-schedule.js';
import { openStore, type Store, type StoreRoot } from '../../src/store/index.js';
import { capturedLog } from '../support/captured-log.js';
import { member, startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

const VOTERS = 500;
/**
 * The stand-in's member role bucket (10 a second per guild) made 20 per 100 ms, and Discord's global
 * limit (50 a second) ten times higher: 500 removals still meet the bucket 25 times and must be
 * paced by its headers, in about 5 s instead of 50 (discord.js waits 50 ms past each reset).
 */
const ROLE_LIMIT = { limit: 20, windowMs: 100 };
const REQUESTS_PER_SECOND = 500;
/** While Discord refuses, one role call in this long finds out whether the fix was made. */
const PROBE_MS = 400;

let discord: DiscordStandIn;
let root: StoreRoot;
let store: Store;
let dir: string;
beforeAll(async () => {
  discord = await startDiscordStandIn({ memberRoleLimit: ROLE_LIMIT, globalRequestsPerSecond: REQUESTS_PER_SECOND });
  dir = mkdtempSync(path.join(tmpdir(), 'bot-expiries-'));
  root = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
  store = root.forServer(discord.guildId);
});
afterAll(async () => {
  await root?.close();
  await discord?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The voter role on the stand-in's guild, with no audit channel. */
function voterRole(rest: REST, logger: Logger, probeMs: number, now: () => number = Date.now): VoterRole {
  return new VoterRole({
    rest,
    poster: discordPoster(rest),
    guildId: discord.guildId,
    roleId: discord.voterRoleId,
    logger,
    now,
    auditChannelId: undefined,
    i18n: () => english,
    probeMs,
    runningUntil: async (userId) => (await store.scheduledExpiry(userId))?.endsAt,
  });
}

describe('500 votes running out in the same minute', () => {
  it('all lose the voter role, paced by the rate limit, with no 429 surfacing as an error', async () => {
    const { logger, lines } = capturedLog([discord.token]);
    const rest = new REST({ api: discord.apiUrl, globalRequestsPerSecond: REQUESTS_PER_SECOND }).setToken(
      discord.token,
    );
    const voters = Array.from({ length: VOTERS }, () => member({ roles: [discord.voterRoleId] }));
    discord.addMembers(voters);
    const now = Date.now();
    // Ends spread over the last minute, all due by now.
    for (const [i, voter] of voters.entries()) await store.scheduleExpiry(voter.user.id, now - 60_000 + i * 100);

    const role = voterRole(rest, logger, 60_000);
    const schedule = sweptSchedule(root, {
      guildId: store.guildId,
      store,
      logger,
      now: Date.now,
      consumers: [role],
      reconcileMs: 60_000,
    });
    schedule.start();
    try {
      await discord.waitUntil(() => discord.roleChanges.length === VOTERS, 25_000, 'every role removal');
    } finally {
      await schedule.stop();
    }

    expect(new Set(discord.roleChanges.map((c) => c.userId)).size).toBe(VOTERS);
    expect(
      discord.roleChanges.every((c) => c.change === 'remove' && c.reason === 'Vote ran out: voter role removed'),
    ).toBe(true);
    // The stand-in's limit (20 per 100 ms per guild) was in force: discord.js paced the calls by the
    // bucket headers, so the removals spread over seconds and not one was answered 429.
    const times = discord.roleChanges.map((c) => c.at);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(
      ((VOTERS - 2 * ROLE_LIMIT.limit) / ROLE_LIMIT.limit) * ROLE_LIMIT.windowMs,
    );
    expect(discord.rateLimitedRequests).toBe(0);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.filter((l) => l.msg === 'voter role removed')).toHaveLength(VOTERS);
    expect(await root.nextExpiryAfter(0)).toBeUndefined();
  }, 30_000);
});

describe('role changes Discord refused (403)', () => {
  it('are tried once per interval, not per member, and made by themselves once the fix is in', async () => {
    const { logger, lines } = capturedLog([discord.token]);
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.token);
    const voters = [member(), member(), member()];
    const leaving = member({ roles: [discord.voterRoleId] });
    discord.addMembers([...voters, leaving]);
    // The schedule and the role read this clock, moved only by the test: the probe interval is the
    // subject. Passes still run on the real reconcile interval (50 ms), so many fit in one probe interval.
    let clock = Date.now();
    const now = () => clock;
    await store.savePoll({
      entries: voters.map((v) => ({ userId: v.user.id, expiresAt: clock + 3_600_000, viaDiscord: true })),
      totals: { totalVotes: 3, monthlyVotes: 3, polledAt: clock },
      poll: { at: clock, ok: true },
    });
    await store.scheduleExpiry(leaving.user.id, clock - 1_000);
    const changesBefore = discord.roleChanges.length;
    // A 429 (the bucket the test before left full) is discord.js's own wait and retry, not a probe.
    const roleCalls = () => discord.requests.filter((r) => /\/roles\/\d+$/.test(r.path) && r.status !== 429).length;
    const callsBefore = roleCalls();
    discord.refuseRoleChanges(true);
    const role = voterRole(rest, logger, PROBE_MS, now);
    // Every reconcile pass that is not a full one asks its consumers to heal: the count proves passes ran.
    let heals = 0;
    const passes = async (count: number) => {
      const from = heals;
      await discord.waitUntil(() => heals >= from + count, 5_000, `${count} more reconcile passes`);
    };
    const watcher: ExpiryConsumer = {
      name: 'watcher',
      onActive: async () => undefined,
      onExpired: async () => undefined,
      heal: async () => {
        heals += 1;
      },
    };
    const schedule = sweptSchedule(root, {
      guildId: store.guildId,
      store,
      logger,
      now,
      consumers: [role, watcher],
      reconcileMs: 50,
    });
    schedule.start();
    try {
      await discord.waitUntil(() => roleCalls() > callsBefore, 5_000, 'the first role call');
      await passes(3);
      // Pass after pass inside one probe interval: one call, whatever the number of members (four).
      expect(roleCalls() - callsBefore).toBe(1);
      clock += PROBE_MS;
      await discord.waitUntil(() => roleCalls() > callsBefore + 1, 5_000, "the next interval's probe");
      await passes(3);
      // At most one probe per probe interval (and a change already on its way when the refusal
      // came back): two intervals, three calls at most, not a storm.
      expect(roleCalls() - callsBefore).toBeLessThanOrEqual(3);
      expect(lines.filter((l) => l.level >= 50)).toHaveLength(1);
      discord.refuseRoleChanges(false);
      clock += PROBE_MS;
      await discord.waitUntil(
        () => discord.roleChanges.length === changesBefore + 4,
        5_000,
        'every change after the fix',
      );
    } finally {
      await schedule.stop();
    }
    const made = discord.roleChanges.slice(changesBefore);
    expect(
      made
        .filter((c) => c.change === 'add')
        .map((c) => c.userId)
        .sort(),
    ).toEqual(voters.map((v) => v.user.id).sort());
    expect(made.filter((c) => c.change === 'remove').map((c) => c.userId)).toEqual([leaving.user.id]);
    expect(lines.some((l) => l.msg === 'voter role changes work again')).toBe(true);
    expect(lines.filter((l) => l.level >= 50)).toHaveLength(1);
  }, 20_000);
});

describe('an expiry whose consumer fails for a while', () => {
  it('is tried again after a short backoff, not a whole reconcile interval, until it is done', async () => {
    const { logger } = capturedLog([discord.token]);
    const userId = member().user.id;
    // The backoff's timers and Date.now run on jest's clock, moved by the test; the store is SQLite,
    // answered synchronously, so nothing here waits on a real timer.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const started = Date.now();
    await store.scheduleExpiry(userId, started - 1_000);
    const tries: number[] = [];
    const flaky: ExpiryConsumer = {
      name: 'flaky',
      onActive: async () => undefined,
      onExpired: async () => {
        tries.push(Date.now());
        if (tries.length < 3) throw new Error('Discord answered 500');
      },
    };
    // The interval is far longer than the clock is moved: only the backoff can bring the retries.
    const schedule = sweptSchedule(root, {
      guildId: store.guildId,
      store,
      logger,
      now: Date.now,
      consumers: [flaky],
      reconcileMs: 600_000,
    });
    schedule.start();
    try {
      while ((await store.scheduledExpiry(userId)) !== undefined && Date.now() - started < 10_000)
        await jest.advanceTimersByTimeAsync(100);
      expect(tries).toHaveLength(3);
      expect(await store.scheduledExpiry(userId)).toBeUndefined();
    } finally {
      await schedule.stop();
      jest.useRealTimers();
    }
    expect(tries[2]! - tries[0]!).toBeLessThan(10_000);
  }, 10_000);
});
