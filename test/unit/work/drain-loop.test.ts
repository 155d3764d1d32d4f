import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { DrainLoop } from '../../../src/work/drain-loop.js';

/** The loop's timers (retries, wakeAt, every, sleep) run on jest's clock; setImmediate stays real to let passes settle. */
beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
});
afterEach(() => {
  jest.useRealTimers();
});
const advance = (ms: number) => jest.advanceTimersByTimeAsync(ms);

describe('DrainLoop', () => {
  it('runs one pass at a time, and once more when woken during a pass', async () => {
    let passes = 0;
    let running = 0;
    let most = 0;
    let release: () => void = () => {};
    const loop = new DrainLoop(async () => {
      passes += 1;
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => (release = resolve));
      running -= 1;
    });
    loop.wake();
    loop.wake();
    loop.wake();
    expect(passes).toBe(1);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(passes).toBe(2);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(passes).toBe(2);
    expect(most).toBe(1);
  });

  it('starts nothing after stop, and stop waits for the pass in flight', async () => {
    let finished = false;
    const loop = new DrainLoop(async () => {
      // A pass that takes 20 ms, on jest's clock.
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = true;
    });
    loop.wake();
    const stopping = loop.stop();
    await advance(19);
    expect(finished).toBe(false);
    await advance(1);
    await stopping;
    expect(finished).toBe(true);
    expect(loop.stopped).toBe(true);
    finished = false;
    loop.wake();
    await advance(30);
    expect(finished).toBe(false);
  });

  it('retries a pass that threw on its own timer, with no wake-up, and reports each failure', async () => {
    let passes = 0;
    const failures: number[] = [];
    const loop = new DrainLoop(
      async () => {
        passes += 1;
        if (passes < 3) throw new Error('store unreachable');
      },
      { backoff: { baseMs: 5, capMs: 10 }, onError: (_err, attempt) => failures.push(attempt) },
    );
    loop.wake();
    expect(passes).toBe(1);
    // By the loop's own timer: the first retry within 5 ms (half fixed, half jitter), the next within 10 after it.
    await advance(5);
    expect(passes).toBe(2);
    await advance(10);
    expect(passes).toBe(3);
    await advance(100);
    expect(passes).toBe(3);
    expect(failures).toEqual([1, 2]);
    await loop.stop();
  });

  it('writes one warn line per failed pass, with its fields, the attempt and the wait', async () => {
    const lines: { fields: object; line: string }[] = [];
    const logger = { warn: (fields: object, line: string) => void lines.push({ fields, line }) };
    const err = new Error('store down');
    let passes = 0;
    const loop = new DrainLoop(
      async () => {
        passes += 1;
        if (passes <= 2) throw err;
      },
      { backoff: { baseMs: 1, capMs: 1 }, warn: { logger, line: 'pass failed', fields: { channelId: '42' } } },
    );
    loop.wake();
    await advance(50);
    await loop.stop();
    expect(passes).toBe(3);
    expect(lines).toEqual([
      { fields: { err, channelId: '42', attempt: 1, retryInMs: expect.any(Number) }, line: 'pass failed' },
      { fields: { err, channelId: '42', attempt: 2, retryInMs: expect.any(Number) }, line: 'pass failed' },
    ]);
  });

  it('wakes at the earliest time asked for, and a sleep inside a pass ends at stop', async () => {
    let passes = 0;
    let slept = false;
    const loop = new DrainLoop(async () => {
      passes += 1;
      await loop.sleep(60_000);
      slept = true;
    });
    const now = Date.now();
    loop.wakeAt(now + 60_000, now);
    loop.wakeAt(now + 10, now);
    await advance(9);
    expect(passes).toBe(0);
    await advance(1);
    expect(passes).toBe(1);
    await loop.stop();
    expect(slept).toBe(true);
  });

  it('ticks a pass every period, drops a tick that finds a pass running, and stops ticking at stop', async () => {
    let passes = 0;
    let running = 0;
    let most = 0;
    let release: () => void = () => {};
    const loop = new DrainLoop(async () => {
      passes += 1;
      running += 1;
      most = Math.max(most, running);
      if (passes === 1) await new Promise<void>((resolve) => (release = resolve));
      running -= 1;
    });
    loop.wake();
    loop.every(200);
    // Ticks at 200 and 400 ms find the first pass running: neither starts a pass nor queues one.
    await advance(450);
    expect(passes).toBe(1);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(passes).toBe(1);
    // The tick at 600 ms starts the next.
    await advance(150);
    expect(passes).toBe(2);
    expect(most).toBe(1);
    await loop.stop();
    await advance(1_000);
    expect(passes).toBe(2);
  });

  it('runs a given tick every period instead, until stop', async () => {
    let ticks = 0;
    let passes = 0;
    const loop = new DrainLoop(async () => void (passes += 1));
    loop.every(10, () => (ticks += 1));
    await advance(20);
    expect(ticks).toBe(2);
    expect(passes).toBe(0);
    await loop.stop();
    await advance(50);
    expect(ticks).toBe(2);
  });
});
