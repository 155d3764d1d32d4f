import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { settleWithin } from '../../../src/work/settle-within.js';

/** The deadline and the work's own timers run on jest's clock, moved by the test. */
beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
});
afterEach(() => {
  jest.useRealTimers();
});
const advance = (ms: number) => jest.advanceTimersByTimeAsync(ms);

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value));
const LATE = Symbol('late');

describe('settleWithin', () => {
  it("gives work's value when it settles first", async () => {
    const settled = settleWithin(after(5, 'done'), 200, () => LATE);
    await advance(5);
    await expect(settled).resolves.toBe('done');
  });

  it("gives late's value once the time passes first", async () => {
    const settled = settleWithin(after(200, 'done'), 10, () => LATE);
    await advance(10);
    await expect(settled).resolves.toBe(LATE);
  });

  it('rejects with what late throws', async () => {
    const timeout = new Error('too slow');
    const settled = settleWithin(after(200, 'done'), 10, () => {
      throw timeout;
    });
    const outcome = expect(settled).rejects.toBe(timeout);
    await advance(10);
    await outcome;
  });

  it("rejects with work's error, and turns a thrown non-error into an Error", async () => {
    const failure = new Error('broken');
    await expect(settleWithin(Promise.reject(failure), 200, () => LATE)).rejects.toBe(failure);
    await expect(settleWithin(Promise.reject('text'), 200, () => LATE)).rejects.toThrow('text');
  });

  it('absorbs a failure of work that comes after the time passed, and never calls late after work settled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const late = new Promise<never>((_, reject) => setTimeout(reject, 30, new Error('after the deadline')));
      const first = settleWithin(late, 5, () => LATE);
      await advance(5);
      await expect(first).resolves.toBe(LATE);
      let calls = 0;
      const second = settleWithin(after(1, 'done'), 20, () => ++calls);
      await advance(1);
      await second;
      // Past both the rejection (30 ms) and the second deadline (20 ms).
      await advance(60);
      // An unhandled rejection is reported on a later turn than the one it happened on.
      await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toBe(0);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
