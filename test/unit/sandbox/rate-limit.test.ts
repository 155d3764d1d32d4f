import { describe, expect, it } from '@jest/globals';
import { RateLimitWindow } from '../../../src/sandbox/rate-limit.js';

describe('the sandbox rate-limit window', () => {
  it('says a fresh window resets in exactly its length, whatever fraction of a ms the clock shows', () => {
    // performance.now() values where (now + 42000) - now is a hair above 42000 in floating point.
    for (const now of [94_667.101_669_241_31, 1234.567, 0.1 + 0.2, 8_888_888.888_888]) {
      const window = new RateLimitWindow({ limit: 60, windowMs: 42_000 });
      expect(window.take(now).headers).toEqual({
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '59',
        'x-ratelimit-reset': '42',
      });
    }
  });

  it('counts down within the window and answers 429 with Retry-After once it is used up', () => {
    const window = new RateLimitWindow({ limit: 2, windowMs: 10_000 });
    expect(window.take(1_000).allowed).toBe(true);
    expect(window.take(4_500).headers['x-ratelimit-reset']).toBe('7');
    const refused = window.take(5_000);
    expect(refused.allowed).toBe(false);
    expect(refused.headers['retry-after']).toBe('6');
    expect(window.violations).toBe(1);
    expect(window.take(11_000)).toMatchObject({ allowed: true, headers: { 'x-ratelimit-remaining': '1' } });
  });
});
