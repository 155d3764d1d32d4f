import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openStore, type NewEvent, type StoreRoot } from '../../src/store/index.js';
import { EventWriter } from '../../src/webhooks/event-writer.js';

const GUILD = '111111111111111111';

let root: StoreRoot;
beforeAll(async () => {
  root = await openStore({ kind: 'sqlite', file: ':memory:' });
});
afterAll(() => root?.close());

/** The real store's addEvents, counting each call's size; `failing` makes the next calls throw. */
function countedStore() {
  const calls: number[] = [];
  let failing = 0;
  return {
    calls,
    failNext: (times: number) => void (failing = times),
    store: {
      async addEvents(events: readonly NewEvent[]) {
        calls.push(events.length);
        // Each call is answered on a later turn, as a round trip to PostgreSQL is: deliveries made
        // meanwhile (the tests make theirs all at once) pile up behind it. No time is needed for that.
        await new Promise((resolve) => setImmediate(resolve));
        if (failing > 0) {
          failing -= 1;
          throw new Error('the store is down');
        }
        return root.addEvents(events);
      },
    },
  };
}

describe('the receiver writes deliveries to the inbox in groups', () => {
  it('writes a lone delivery at once and a burst in a few inserts, each delivery told its own id', async () => {
    const { store, calls } = countedStore();
    const writer = new EventWriter(store);
    const alone = await writer.addEvent(GUILD, 'vote', { n: -1 }, 1_000);
    expect(calls).toEqual([1]);
    const ids = await Promise.all(
      Array.from({ length: 100 }, (_, n) => writer.addEvent(GUILD, 'vote', { event: 'vote', n }, 2_000 + n)),
    );
    // Two inserts go at once; the rest waited and went together.
    expect(calls.length).toBeLessThanOrEqual(5);
    expect(calls.slice(1).reduce((a, b) => a + b, 0)).toBe(100);
    const stored = new Map((await root.pendingEvents(1_000)).map((event) => [event.id, event]));
    expect(stored.get(alone)?.payload).toEqual({ n: -1 });
    for (const [n, id] of ids.entries()) expect(stored.get(id)?.payload).toEqual({ event: 'vote', n });
    await root.markEventsHandled([alone, ...ids], 3_000);
  });

  it('fails every delivery of a failed insert (each answered 503 and retried by Guilds), and goes on after', async () => {
    const { store, calls, failNext } = countedStore();
    const writer = new EventWriter(store);
    failNext(1);
    const first = writer.addEvent(GUILD, 'vote', { n: 0 }, 1_000);
    const results = await Promise.allSettled([
      first,
      ...Array.from({ length: 10 }, (_, n) => writer.addEvent(GUILD, 'vote', { n: n + 1 }, 1_000)),
    ]);
    expect(results[0]!.status).toBe('rejected');
    // Only the failed insert's deliveries failed; the others were stored.
    const failed = results.filter((r) => r.status === 'rejected').length;
    expect(failed).toBe(calls[0]);
    const stored = await root.pendingEvents(1_000);
    expect(stored).toHaveLength(11 - failed);
    await root.markEventsHandled(
      stored.map((event) => event.id),
      2_000,
    );
    expect(await writer.addEvent(GUILD, 'vote', { n: 99 }, 3_000)).toEqual(expect.any(Number));
  });
});
