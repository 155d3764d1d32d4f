import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { openStore, type DeliveryRecord, type StoreRoot } from '../../src/store/index.js';
import { STORE_BACKOFF } from '../../src/work/backoff.js';
import { DeliveryLog } from '../../src/webhooks/delivery-log.js';
import { capturedLog } from '../support/captured-log.js';

const SERVER = '700000000000000021';
const OTHER = '700000000000000022';
const FLUSH_MS = 50;

const line = (at: number, outcome: DeliveryRecord['outcome'] = 'wrong_token', guildId = SERVER): DeliveryRecord => ({
  guildId,
  at,
  event: '?',
  outcome,
});
/**
 * The flush timer and the retry backoff run on jest's clock, moved by the test; the store is SQLite
 * in memory, answered synchronously, so nothing here waits on a real timer.
 */
const settle = (ms = FLUSH_MS) => jest.advanceTimersByTimeAsync(ms);

describe('the delivery log writer', () => {
  let root: StoreRoot;
  let writes: number;
  let failNext: number;
  /** While set, a write waits for it, as a write on its way to a slow store. */
  let hold: Promise<void> | undefined;
  let log: DeliveryLog;
  beforeEach(async () => {
    root = await openStore({ kind: 'sqlite', file: ':memory:' });
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    writes = 0;
    failNext = 0;
    hold = undefined;
    // The real store, counted, and made to fail on demand as a stalled database would.
    const store = {
      recordDeliveries: async (entries: readonly DeliveryRecord[], keep: number) => {
        writes += 1;
        await hold;
        if (failNext > 0) {
          failNext -= 1;
          throw new Error('database is locked');
        }
        return root.recordDeliveries(entries, keep);
      },
    };
    log = new DeliveryLog({ store, logger: capturedLog().logger, flushMs: FLUSH_MS });
  });
  afterEach(async () => {
    await log.stop();
    jest.useRealTimers();
    await root.close();
  });

  it('takes a flood of refusals without touching the store, then writes them once, kept to the newest 10', async () => {
    for (let i = 0; i < 5_000; i++) log.record(line(i));
    log.record(line(1, 'stored', OTHER));
    expect(writes).toBe(0);
    await settle(FLUSH_MS - 1);
    expect(writes).toBe(0);
    await settle(1);
    expect(writes).toBe(1);
    const kept = await root.forServer(SERVER).recentDeliveries(100);
    expect(kept.map((entry) => entry.at)).toEqual([
      4_999, 4_998, 4_997, 4_996, 4_995, 4_994, 4_993, 4_992, 4_991, 4_990,
    ]);
    expect(await root.forServer(OTHER).recentDeliveries(100)).toHaveLength(1);
  });

  it('keeps the lines of a failed write and writes them on its own retry, still the newest 10 of each window', async () => {
    failNext = 1;
    for (let i = 0; i < 6; i++) log.record(line(i));
    await settle();
    expect(writes).toBe(1);
    for (let i = 6; i < 20; i++) log.record(line(i, 'stored'));
    // STORE_BACKOFF's first retry comes within its base, 500 ms.
    await settle(STORE_BACKOFF.baseMs);
    expect(writes).toBe(2);
    const kept = await root.forServer(SERVER).recentDeliveries(100);
    expect(kept.map((entry) => entry.at)).toEqual([19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 5, 4, 3, 2, 1, 0]);
  });

  it("never lets a stranger's refusals push accepted deliveries out: each window keeps its own newest 10", async () => {
    for (let i = 0; i < 3; i++) log.record(line(i, 'stored'));
    log.record(line(3, 'duplicate'));
    // Wrong signatures, unreadable bodies and other servers' ids: all a stranger can make.
    const outcomes = ['wrong_token', 'malformed', 'wrong_server'] as const;
    for (let i = 10; i < 5_010; i++) log.record(line(i, outcomes[i % 3]));
    const accepted = [3, 2, 1, 0];
    const refused = Array.from({ length: 10 }, (_, i) => 5_009 - i);
    expect(log.waiting(SERVER).map((entry) => entry.at)).toEqual([...refused, ...accepted]);
    await log.stop();
    expect((await root.forServer(SERVER).recentDeliveries(10)).map((entry) => entry.at)).toEqual([
      ...refused,
      ...accepted,
    ]);
    // And in the store, whose trim counts each window apart: a later flood in a write of its own.
    await root.recordDeliveries(
      Array.from({ length: 12 }, (_, i) => line(10_000 + i)),
      10,
    );
    const newest = Array.from({ length: 10 }, (_, i) => 10_011 - i);
    const kept = await root.forServer(SERVER).recentDeliveries(100);
    expect(kept.map((entry) => entry.at)).toEqual([...newest, ...accepted]);
  });

  it('shows the lines not stored yet, newest first, while they wait and while their write is on the way', async () => {
    failNext = 1;
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    for (let i = 0; i < 12; i++) log.record(line(i));
    log.record(line(1, 'stored', OTHER));
    const newest = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
    expect(log.waiting(SERVER).map((entry) => entry.at)).toEqual(newest);
    await settle();
    expect(writes).toBe(1);
    expect(log.waiting(SERVER).map((entry) => entry.at)).toEqual(newest);
    expect(log.waiting(OTHER).map((entry) => entry.at)).toEqual([1]);
    // That write fails: the lines are still shown, then written by the retry.
    hold = undefined;
    release();
    await settle();
    expect(log.waiting(SERVER).map((entry) => entry.at)).toEqual(newest);
    await settle(STORE_BACKOFF.baseMs);
    expect(log.waiting(SERVER)).toEqual([]);
    expect((await root.forServer(SERVER).recentDeliveries(100)).map((entry) => entry.at)).toEqual(newest);
  });

  it('writes what waits when stopped', async () => {
    log.record(line(7, 'duplicate'));
    await log.stop();
    expect((await root.forServer(SERVER).recentDeliveries(10)).map((entry) => entry.outcome)).toEqual(['duplicate']);
  });
});
