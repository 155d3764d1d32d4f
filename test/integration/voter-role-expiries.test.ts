import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REST } from 'discord.js';
import { discordPoster } from '../../src/bot/poster.js';
import { english } from '../../src/i18n/index.js';
import type { Logger } from '../../src/core/log.js';
import { VoterRole } from '../../src/roles/voter-role.js';
import type { ExpiryConsumer } from '../../src/schedule/expiry-schedule.js';
import { sweptSchedule } from '../support/swept-schedule.js';
import { openStore, type Store, type StoreRoot } from '../../src/store/index.js';
import { capturedLog } from '../support/captured-log.js';
import { member, startDiscordStandIn, type DiscordStandIn } from '../../tools/discord-standin/index.js';

const VOTERS = 500;

let discord: DiscordStandIn;
let root: StoreRoot;
let store: Store;
let dir: string;
beforeAll(async () => {
  discord = await startDiscordStandIn();
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
function voterRole(rest: REST, logger: Logger, probeMs: number): VoterRole {
  return new VoterRole({
    rest,
    poster: discordPoster(rest),
    guildId: discord.guildId,
    roleId: discord.voterRoleId,
    logger,
    now: Date.now,
    auditChannelId: undefined,
    i18n: () => english,
    probeMs,
    runningUntil: async (userId) => (await store.scheduledExpiry(userId))?.endsAt,
  });
}

describe('500 votes running out in the same minute', () => {
  it('all lose the voter role, paced by the rate limit, with no 429 surfacing as an error', async () => {
    const { logger, lines } = capturedLog([discord.token]);
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.token);
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
      await discord.waitUntil(() => discord.roleChanges.length === VOTERS, 170_000, 'every role removal');
    } finally {
      await schedule.stop();
    }

    expect(new Set(discord.roleChanges.map((c) => c.userId)).size).toBe(VOTERS);
    expect(
      discord.roleChanges.every((c) => c.change === 'remove' && c.reason === 'Vote ran out: voter role removed'),
    ).toBe(true);
    // The stand-in's limit (10 a second per guild) was in force: discord.js paced the calls by the
    // bucket headers, so the removals spread over ~50 s and not one was answered 429.
    const times = discord.roleChanges.map((c) => c.at);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(((VOTERS - 20) / 10) * 1000);
    expect(discord.rateLimitedRequests).toBe(0);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.filter((l) => l.msg === 'voter role removed')).toHaveLength(VOTERS);
    expect(await root.nextExpiryAfter(0)).toBeUndefined();
  }, 180_000);
});

describe('role changes Discord refused (403)', () => {
  it('are tried once per interval, not per member, and made by themselves once the fix is in', async () => {
    const { logger, lines } = capturedLog([discord.token]);
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.token);
    const voters = [member(), member(), member()];
    const leaving = member({ roles: [discord.voterRoleId] });
    discord.addMembers([...voters, leaving]);
    const now = Date.now();
    await store.savePoll({
      entries: voters.map((v) => ({ userId: v.user.id, expiresAt: now + 3_600_000, viaDiscord: true })),
      totals: { totalVotes: 3, monthlyVotes: 3, polledAt: now },
      poll: { at: now, ok: true },
    });
    await store.scheduleExpiry(leaving.user.id, now - 1_000);
    const changesBefore = discord.roleChanges.length;
    const roleCalls = () => discord.requests.filter((r) => /\/roles\/\d+$/.test(r.path)).length;
    const callsBefore = roleCalls();
    discord.refuseRoleChanges(true);
    const role = voterRole(rest, logger, 400);
    const schedule = sweptSchedule(root, {
      guildId: store.guildId,
      store,
      logger,
      now: Date.now,
      consumers: [role],
      reconcileMs: 500,
    });
    const started = Date.now();
    schedule.start();
    try {
      await discord.waitUntil(() => roleCalls() > callsBefore, 5_000, 'the first role call');
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      // At most one probe per probe interval (400 ms) whatever the number of members: not a storm.
      const intervals = Math.ceil((Date.now() - started) / 400);
      expect(roleCalls() - callsBefore).toBeLessThanOrEqual(intervals + 1);
      expect(lines.filter((l) => l.level >= 50)).toHaveLength(1);
      discord.refuseRoleChanges(false);
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
  }, 30_000);
});

describe('an expiry whose consumer fails for a while', () => {
  it('is tried again after a short backoff, not a whole reconcile interval, until it is done', async () => {
    const { logger } = capturedLog([discord.token]);
    const userId = member().user.id;
    await store.scheduleExpiry(userId, Date.now() - 1_000);
    const tries: number[] = [];
    const flaky: ExpiryConsumer = {
      name: 'flaky',
      onActive: async () => undefined,
      onExpired: async () => {
        tries.push(Date.now());
        if (tries.length < 3) throw new Error('Discord answered 500');
      },
    };
    // The interval is far longer than the test: only the backoff can bring the retries.
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
      await discord.waitUntil(() => tries.length === 3, 10_000, 'the third try');
      for (let i = 0; i < 50 && (await store.scheduledExpiry(userId)) !== undefined; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await store.scheduledExpiry(userId)).toBeUndefined();
    } finally {
      await schedule.stop();
    }
    expect(tries[2]! - tries[0]!).toBeLessThan(10_000);
  }, 30_000);
});
