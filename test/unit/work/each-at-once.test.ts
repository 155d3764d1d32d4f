import { describe, expect, it } from '@jest/globals';
import { eachAtOnce } from '../../../src/work/each-at-once.js';

/** Work that ends on a later turn, so items overlap: no time is needed for that. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('eachAtOnce', () => {
  it('works through every item in order, never more than the limit at a time', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await eachAtOnce(
      Array.from({ length: 20 }, (_, i) => i),
      3,
      async (i) => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await tick();
        running -= 1;
      },
    );
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(most).toBe(3);
  });

  it('starts nothing once stopped', async () => {
    const done: number[] = [];
    let stop = false;
    await eachAtOnce(
      [1, 2, 3, 4, 5, 6],
      2,
      async (i) => {
        done.push(i);
        if (i === 2) stop = true;
        await tick();
      },
      () => stop,
    );
    expect(done).toEqual([1, 2]);
  });
});
