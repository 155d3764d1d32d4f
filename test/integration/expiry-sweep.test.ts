import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ExpiryConsumer } from '../../src/schedule/expiry-consumers.js';
import { ExpirySchedule } from '../../src/schedule/expiry-schedule.js';
import { ExpirySweep } from '../../src/schedule/expiry-sweep.js';
import { openStore, type StoreRoot, type SweepStore } from '../../src/store/index.js';
import { nextSnowflake } from '../../tools/discord-standin/index.js';
import { capturedLog } from '../support/captured-log.js';
import { pollUntil } from '../support/poll-until.js';

const SERVERS = 200;
let root: StoreRoot;

beforeAll(async () => {
  root = await openStore({ kind: 'sqlite', file: ':memory:' });
});

afterAll(async () => {
  await root?.close();
});

/** The root store, counting the calls of the sweep's reads. */
function counted(store: StoreRoot): { store: SweepStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(key), (calls.get(String(key)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

describe("a process's one expiry pass over its servers", () => {
  it('fires every joined server’s due ends with a few reads in all, and leaves another process’s alone', async () => {
    const { store, calls } = counted(root);
    const { logger, lines } = capturedLog();
    const sweep = new ExpirySweep({ store, logger, now: Date.now, reconcileMs: 3_600_000 });
    const expired: string[] = [];
    const consumer: ExpiryConsumer = {
      name: 'recorder',
      onActive: async () => undefined,
      onExpired: async (userId) => void expired.push(userId),
    };
    const now = Date.now();
    const guildIds = Array.from({ length: SERVERS }, () => nextSnowflake());
    const voters = new Map<string, string>();
    for (const guildId of guildIds) {
      const voter = nextSnowflake();
      voters.set(guildId, voter);
      await root.forServer(guildId).scheduleExpiry(voter, now - 1_000);
    }
    // A server this process does not run (another process's shard): its end stays for its owner.
    const elsewhere = nextSnowflake();
    await root.forServer(elsewhere).scheduleExpiry('1', now - 1_000);
    const schedules = guildIds.map(
      (guildId) =>
        new ExpirySchedule({
          guildId,
          pass: sweep,
          store: root.forServer(guildId),
          logger,
          now: Date.now,
          consumers: [consumer],
          reconcileMs: 3_600_000,
        }),
    );
    for (const schedule of schedules) schedule.start();
    try {
      // The consumer's record is the state; it sends no event of its own.
      await pollUntil(() => expired.length === SERVERS, 'every due end', { everyMs: 20 });
      expect(new Set(expired)).toEqual(new Set(voters.values()));
      for (const guildId of guildIds)
        expect(await root.forServer(guildId).scheduledExpiry(voters.get(guildId)!)).toBeUndefined();
      expect(await root.forServer(elsewhere).scheduledExpiry('1')).toBeDefined();
      // Per server, a reconcile's own reads; the due ends and the next one are read for all at once.
      expect(calls.get('dueExpiriesAll')).toBeLessThanOrEqual(3);
      expect(calls.get('nextExpiryAfter') ?? 0).toBe(calls.get('dueExpiriesAll'));
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    } finally {
      for (const schedule of schedules) await schedule.stop();
      await sweep.stop();
    }
    expect(sweep.size).toBe(0);
  }, 15_000);
});
