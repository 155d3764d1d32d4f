import { describe, expect, it } from '@jest/globals';
import { DrainLoop } from '../../../src/feeds/drain-loop.js';

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
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = true;
    });
    loop.wake();
    await loop.stop();
    expect(finished).toBe(true);
    expect(loop.stopped).toBe(true);
    finished = false;
    loop.wake();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(finished).toBe(false);
  });
});
