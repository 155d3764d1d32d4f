import { describe, expect, it } from '@jest/globals';
import { FLOOD_BOUND, TokenBuckets } from '../../../src/core/token-buckets.js';

describe('a token bucket', () => {
  it('lets a burst through, then says how long to wait, and refills with time', () => {
    let now = 0;
    const buckets = new TokenBuckets({ capacity: 3, perMinute: 6 }, FLOOD_BOUND, () => now);
    const wait = (key: string) => buckets.take(key).retryAfterSeconds;
    expect([wait('a'), wait('a'), wait('a')]).toEqual([0, 0, 0]);
    expect(wait('a')).toBe(10);
    expect(wait('b')).toBe(0);
    now += 10_000;
    expect(wait('a')).toBe(0);
  });
});
