import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox } from '../../src/sandbox/server.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { REST } from '@discordjs/rest';
import { discordPoster } from '../../src/bot/poster.js';
import { english } from '../../src/i18n/index.js';
import {
  MilestoneRoles,
  type MilestoneCheckPass,
  type MilestoneRolesOptions,
} from '../../src/roles/milestone-roles.js';
import { ExpirySchedule, type ExpiryPass } from '../../src/schedule/expiry-schedule.js';
import { inboxRoute } from '../../src/runtime/event-route.js';
import { ASSUMED_VOTE_PERIOD_MS } from '../../src/mirror/mirror-options.js';
import { openStore, type Store, type StoreRoot } from '../../src/store/index.js';
import type { Logger } from '../../src/core/log.js';
import { capturedLog } from '../support/captured-log.js';
import { pollUntil } from '../support/poll-until.js';
import { NOBODY, VOTER } from '../../tools/seed.js';
import { quietVotes } from '../support/quiet-votes.js';
import { unpolledMirror } from '../support/unpolled-mirror.js';

const GUILD = '1044470000000000001';
const HOUR = 3_600_000;
/** These tests write through a schedule and roles; the process's passes that fire and check do nothing here. */
const UNUSED_PASS: ExpiryPass = { join: () => undefined, leave: () => undefined, wakeAt: () => undefined };
const UNUSED_CHECKS: MilestoneCheckPass = { join: () => undefined, leave: () => undefined };

/** A server's milestone roles with no Discord behind them: these tests count the store's reads. */
function idleMilestoneRoles(store: MilestoneRolesOptions['store'], logger: Logger): MilestoneRoles {
  const rest = new REST();
  return new MilestoneRoles({
    rest,
    poster: discordPoster(rest),
    store,
    guildId: GUILD,
    guild: () => null,
    logger,
    now: Date.now,
    auditChannelId: undefined,
    i18n: () => english,
    memberRoles: async () => new Map(),
    checkMs: 3_600_000,
    checks: UNUSED_CHECKS,
  });
}

let sandbox: Sandbox;
let root: StoreRoot;
let dir: string;
let guildNumber = 0;
beforeAll(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(path.join(tmpdir(), 'bot-hot-path-'));
  root = await openStore({ kind: 'sqlite', file: path.join(dir, 'bot.sqlite') });
});
afterAll(async () => {
  await root?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => sandbox.reset());

/** A real store of a fresh server, counting the calls made to each of its methods. */
function countedStore(): { store: Store; calls: Map<string, number> } {
  const real = root.forServer(`${GUILD.slice(0, -2)}${String(++guildNumber).padStart(2, '0')}`);
  const calls = new Map<string, number>();
  const store = new Proxy(real, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(key), (calls.get(String(key)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls };
}

describe('/vote reads no store on its hot path', () => {
  it('answers from the mirror after a poll with no store read, and follows a refresh', async () => {
    const { store, calls } = countedStore();
    const { logger } = capturedLog();
    const mirror = unpolledMirror(sandbox, store, { logger });
    await mirror.poll();
    calls.clear();

    for (let i = 0; i < 50; i++) expect((await mirror.activeVote(VOTER))?.voted).toBe(true);
    expect(await mirror.activeVote(NOBODY)).toBeUndefined();
    expect([...calls.keys()].filter((name) => name.startsWith('mirror'))).toEqual([]);

    // The service no longer shows the vote: a refresh takes it out of what /vote reads.
    sandbox.setVote(VOTER, null);
    mirror.refreshSoon(VOTER);
    const stored = async () => (await store.mirrorEntries()).map((entry) => entry.userId);
    await pollUntil(async () => !(await stored()).includes(VOTER), 'the refresh written', { everyMs: 10 });
    expect(await stored()).not.toContain(VOTER);
    expect(await mirror.activeVote(VOTER)).toBeUndefined();
    await mirror.stop();
  });

  it('reads the store once for a mirror it has not polled, then answers from memory', async () => {
    const { store, calls } = countedStore();
    await store.setMirrorEntry(VOTER, { userId: VOTER, expiresAt: Date.now() + HOUR, viaDiscord: true });
    const { logger } = capturedLog();
    const mirror = unpolledMirror(sandbox, store, { logger });
    calls.clear();
    for (let i = 0; i < 20; i++) expect((await mirror.activeVote(VOTER))?.voted).toBe(true);
    expect(calls.get('mirrorEntries')).toBe(1);
    expect(calls.get('mirrorEntry')).toBeUndefined();
  });

  it('schedules the end a cached /vote answer offers again only once', async () => {
    const { store, calls } = countedStore();
    const { logger } = capturedLog();
    const schedule = new ExpirySchedule({
      guildId: GUILD,
      pass: UNUSED_PASS,
      store,
      logger,
      now: Date.now,
      consumers: [],
      reconcileMs: 60_000,
    });
    const endsAt = Date.now() + HOUR;
    // Each answer from the cache gives the same end, give or take the rounding of its age.
    for (let i = 0; i < 20; i++) await schedule.voteSeen(VOTER, endsAt + (i % 3));
    // One call writes the end and says what it replaced: no read of its own before it.
    expect(calls.get('rescheduleExpiry')).toBe(1);
    expect(calls.get('scheduledExpiry')).toBeUndefined();
    expect((await store.scheduledExpiry(VOTER))?.endsAt).toBe(endsAt);
    // A vote that really moved is written.
    await schedule.voteSeen(VOTER, endsAt + HOUR);
    expect(calls.get('rescheduleExpiry')).toBe(2);
    expect((await store.scheduledExpiry(VOTER))?.endsAt).toBe(endsAt + HOUR);
    await schedule.stop();
  });

  it('writes the ends of many new voters /vote answers showed at once in one statement, each offered to the consumers once', async () => {
    const { store, calls } = countedStore();
    const { logger } = capturedLog();
    const offered: string[] = [];
    const schedule = new ExpirySchedule({
      guildId: GUILD,
      pass: UNUSED_PASS,
      store,
      logger,
      now: Date.now,
      consumers: [
        { name: 'recorder', onActive: async (userId) => void offered.push(userId), onExpired: async () => undefined },
      ],
      reconcileMs: 60_000,
    });
    const endsAt = Date.now() + HOUR;
    const voters = Array.from({ length: 30 }, (_, i) => String(700000000000000000n + BigInt(i)));
    await Promise.all(voters.map((userId, i) => schedule.voteSeen(userId, endsAt + i)));
    expect(calls.get('rescheduleExpiries')).toBe(1);
    expect(calls.get('scheduleExpiries')).toBeUndefined();
    expect(offered.sort()).toEqual([...voters].sort());
    for (const [i, userId] of voters.entries()) expect((await store.scheduledExpiry(userId))?.endsAt).toBe(endsAt + i);
    await schedule.stop();
  });

  it("takes a delivered vote's known end from the mirror in memory, not a store read per delivery", async () => {
    const { store, calls } = countedStore();
    const { logger } = capturedLog();
    const mirror = unpolledMirror(sandbox, store, { logger });
    const at = Date.now();
    // The mirror shows VOTER's vote running for another hour: a delivery of it ends then, not in 12 hours.
    await store.setMirrorEntry(VOTER, { userId: VOTER, expiresAt: at + HOUR, viaDiscord: true });
    const ends = new Map<string, number>();
    const handle = inboxRoute({
      store,
      api: { forgetMember: () => undefined },
      feed: { onReview: async () => true, onAnswered: async () => undefined },
      votes: quietVotes({ newVote: async (userId, endsAt) => void ends.set(userId, endsAt) }),
      mirror: { refreshSoon: () => undefined, knownEnd: (userId) => mirror.knownEnd(userId) },
      logger,
    });
    calls.clear();
    const delivery = (userId: string, id: number) => ({
      id,
      guildId: GUILD,
      kind: 'vote',
      receivedAt: at,
      attempts: 0,
      payload: { event: 'vote', guildId: GUILD, double: false, user: { id: userId, discord: false } },
    });
    expect(await handle(delivery(VOTER, 1))).toBe('stored');
    expect(await handle(delivery(NOBODY, 2))).toBe('stored');
    expect(await handle(delivery(NOBODY, 3))).toBe('duplicate');
    expect(ends.get(VOTER)).toBe(at + HOUR);
    expect(ends.get(NOBODY)).toBe(at + ASSUMED_VOTE_PERIOD_MS);
    // The mirror was read once for all three deliveries, never a row per delivery.
    expect(calls.get('mirrorEntries')).toBe(1);
    expect(calls.get('mirrorEntry')).toBeUndefined();
    expect(calls.get('acceptVote')).toBe(3);
    await mirror.stop();
  });

  it("reads a server's milestones once for the passes recorded votes wake, and again after a check", async () => {
    const { store, calls } = countedStore();
    const { logger } = capturedLog();
    const roles = idleMilestoneRoles(store, logger);
    const read = () => calls.get('milestones') ?? 0;
    roles.start();
    await pollUntil(() => !roles.hasMilestones, 'the first pass to find none');
    expect(read()).toBe(1);
    // Each accepted vote wakes a pass; a server without milestones then does nothing at all.
    for (let i = 0; i < 5; i++) roles.wake();
    expect(read()).toBe(1);
    // /setup changed them (or the periodic check, EXPIRY_CHECK_SECONDS): read again. Its pass runs
    // after any the wakes started, so once it has found none again every read is counted.
    roles.check();
    await pollUntil(() => read() > 1 && !roles.hasMilestones, "the check's pass");
    expect(read()).toBe(2);
    await roles.stop();
  });

  it('reads nothing at start for a server the process read as having no milestones, and nothing for its votes', async () => {
    const { store, calls } = countedStore();
    const { logger } = capturedLog();
    const roles = idleMilestoneRoles(store, logger);
    roles.start(true);
    for (let i = 0; i < 5; i++) roles.wake();
    expect(calls.get('milestones')).toBeUndefined();
    expect(roles.hasMilestones).toBe(false);
    // /setup set one: the check reads them, and the periodic check includes the server again. Its
    // pass runs after any the wakes started, so once it is done every read is counted.
    roles.check();
    expect(roles.hasMilestones).toBe(true);
    await pollUntil(() => !roles.hasMilestones, "the check's pass to find none");
    expect(calls.get('milestones')).toBe(1);
    await roles.stop();
    // Stopped: neither a vote nor a check starts another pass (a pass reads at its first step).
    roles.check();
    roles.wake();
    // One turn for anything either queued; no event can say that nothing ran.
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.get('milestones')).toBe(1);
  });

  it('does not keep a milestone list read before a check: the pass the check woke reads the new one', async () => {
    const { store, calls } = countedStore();
    const { logger } = capturedLog();
    // The first read of the list is held out until the test lets it go, so /setup's change and its
    // check land while it is out.
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let answered = 0;
    const slow = new Proxy(store, {
      get: (target, key, receiver) =>
        key === 'milestones'
          ? async () => {
              const read = target.milestones();
              if (answered++ === 0) await held;
              return read;
            }
          : (Reflect.get(target, key, receiver) as unknown),
    });
    const roles = idleMilestoneRoles(slow, logger);
    const read = () => calls.get('milestones') ?? 0;
    roles.start();
    await pollUntil(() => read() > 0, 'the first read out');
    await store.setMilestone({ roleId: '900000000000000777', votes: 3, period: 'all', createdAt: Date.now() });
    roles.check();
    letGo();
    // The first read (no milestones yet) must not stand in for the list the check asked for.
    await pollUntil(() => read() >= 2, 'the read the check asked for');
    expect(read()).toBeGreaterThanOrEqual(2);
    await roles.stop();
  });
});
