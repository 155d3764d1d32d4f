import { describe, expect, it } from '@jest/globals';
import { settleWithin } from '../../../src/work/settle-within.js';

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value));
const LATE = Symbol('late');

describe('settleWithin', () => {
  it("gives work's value when it settles first", async () => {
    await expect(settleWithin(after(5, 'done'), 200, () => LATE)).resolves.toBe('done');
  });

  it("gives late's value once the time passes first", async () => {
    await expect(settleWithin(after(200, 'done'), 10, () => LATE)).resolves.toBe(LATE);
  });

  it('rejects with what late throws', async () => {
    const timeout = new Error('too slow');
    await expect(
      settleWithin(after(200, 'done'), 10, () => {
        throw timeout;
      }),
    ).rejects.toBe(timeout);
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
      await expect(settleWithin(late, 5, () => LATE)).resolves.toBe(LATE);
      let calls = 0;
      await settleWithin(after(1, 'done'), 20, () => ++calls);
      await after(60, undefined);
      expect(calls).toBe(0);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
