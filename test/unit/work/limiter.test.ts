import { describe, expect, it } from '@jest/globals';
import { Limiter } from '../../../src/work/limiter.js';

/** A task that runs until `finish` is called, recording how many ran with it. */
function gatedTasks(limiter: Limiter, count: number) {
  const finishers: Array<(fail?: boolean) => void> = [];
  const started: number[] = [];
  let maxActive = 0;
  const results = Array.from({ length: count }, (_, i) =>
    limiter
      .run(
        () =>
          new Promise<number>((resolve, reject) => {
            started.push(i);
            maxActive = Math.max(maxActive, limiter.active);
            finishers[i] = (fail) => (fail ? reject(new Error(`task ${i} failed`)) : resolve(i));
          }),
      )
      .catch((error: Error) => error.message),
  );
  return { finishers, started, results, maxActive: () => maxActive };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a limiter', () => {
  it('runs at most its limit at once and starts the others in the order they came as turns free up', async () => {
    const limiter = new Limiter(2);
    const tasks = gatedTasks(limiter, 6);
    await settle();
    expect(tasks.started).toEqual([0, 1]);
    expect({ active: limiter.active, waiting: limiter.waiting }).toEqual({ active: 2, waiting: 4 });
    tasks.finishers[1]!();
    await settle();
    expect(tasks.started).toEqual([0, 1, 2]);
    // A failed task gives its turn back too.
    tasks.finishers[0]!(true);
    await settle();
    expect(tasks.started).toEqual([0, 1, 2, 3]);
    for (const i of [2, 3, 4, 5]) {
      tasks.finishers[i]!();
      await settle();
    }
    expect(await Promise.all(tasks.results)).toEqual(['task 0 failed', 1, 2, 3, 4, 5]);
    expect(tasks.maxActive()).toBe(2);
    expect({ active: limiter.active, waiting: limiter.waiting }).toEqual({ active: 0, waiting: 0 });
  });

  it('refuses a limit below 1, which would run nothing', () => {
    expect(() => new Limiter(0)).toThrow('a limit of 1 or more');
  });
});
