import { describe, expect, it } from '@jest/globals';
import { GlobalRateLimit } from '../../../tools/discord-standin/rate-limits.js';

const T0 = 1_795_000_000_000;

/** n requests read at `at`, each `stalledMs` after the stand-in's loop was last free; how many were refused. */
function read(limit: GlobalRateLimit, n: number, at: number, stalledMs = 0): number {
  const before = limit.refused;
  for (let i = 0; i < n; i += 1) limit.take(at, stalledMs);
  return limit.refused - before;
}

describe("the stand-in's global limit (a leaky bucket: 50 a second, bursts of 50)", () => {
  it('takes a burst of 50, refuses the rest at once, and counts every request read', () => {
    const limit = new GlobalRateLimit(50);
    expect(read(limit, 60, T0 + 500)).toBe(10);
    expect(limit.perSecond.get((T0 + 500) / 1000 - 0.5)).toBe(60);
  });

  it('refills one request every 20 ms', () => {
    const limit = new GlobalRateLimit(50);
    expect(read(limit, 50, T0)).toBe(0);
    expect(read(limit, 1, T0 + 19)).toBe(1);
    expect(read(limit, 1, T0 + 20)).toBe(0);
    expect(read(limit, 6, T0 + 120)).toBe(1);
  });

  it('takes two windows of a pacer at 25 a window that arrive together across a second', () => {
    // One window's 25 read late, just before the next window's 25: 50 within 60 ms, 58 in one clock second.
    const limit = new GlobalRateLimit(50);
    expect(read(limit, 8, T0 + 900)).toBe(0);
    expect(read(limit, 25, T0 + 1_680)).toBe(0);
    expect(read(limit, 25, T0 + 1_740)).toBe(0);
    // Then the bucket is near empty: three more fit (refilled in the 61 ms since 1,680), the rest wait.
    expect(read(limit, 5, T0 + 1_741)).toBe(2);
  });

  it('refuses a sustained 100 a second, half of it', () => {
    const limit = new GlobalRateLimit(50);
    let refused = 0;
    for (let ms = 0; ms < 10_000; ms += 10) refused += read(limit, 1, T0 + ms);
    // 50 as the first burst, then one in every two.
    expect(refused).toBeGreaterThanOrEqual(450);
    expect(refused).toBeLessThanOrEqual(451);
  });

  it('takes what was read after its own stall at the moments it may have arrived', () => {
    const limit = new GlobalRateLimit(50);
    // Two seconds of a sender at 40 a second, read together after the loop was held 2 s.
    expect(read(limit, 80, T0 + 2_000, 2_000)).toBe(0);
    // Without the stall the same batch would break the limit.
    expect(read(new GlobalRateLimit(50), 80, T0 + 2_000)).toBe(30);
  });

  it('still refuses what no moment of the stall had room for', () => {
    const limit = new GlobalRateLimit(50);
    // Held 1 s: 50 in a burst plus 49 refilled over the second (the 20 ms after the last reads none).
    expect(read(limit, 120, T0 + 1_000, 1_000)).toBe(120 - 50 - 50);
  });
});
