import { afterEach, describe, expect, it } from '@jest/globals';
import { LoopClock } from '../../../tools/discord-standin/loop-clock.js';

/** Holds this process's event loop for `ms`, as a test's 50 MB answer serialized in the stand-in's process does. */
function holdLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("the stand-in's loop clock", () => {
  let clock: LoopClock | undefined;
  afterEach(() => clock?.stop());

  it('reads a stall that is still going on', () => {
    clock = new LoopClock();
    holdLoop(300);
    expect(clock.stalledFor()).toBeGreaterThanOrEqual(300);
  });

  it('still reads the stall in the first turn after it, when its own timer has already run', async () => {
    clock = new LoopClock();
    holdLoop(300);
    // Due after the clock's interval, so it runs in the same timers phase, after the clock's turn:
    // as a request that reached the socket during the stall is read after the timers.
    const read = await new Promise<number>((resolve) => setTimeout(() => resolve(clock!.stalledFor()), 0));
    expect(read).toBeGreaterThanOrEqual(300);
  });
});
