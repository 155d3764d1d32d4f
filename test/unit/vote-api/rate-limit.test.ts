import { describe, expect, it } from '@jest/globals';
import { KeyRateLimiter } from '../../../src/vote-api/rate-limit.js';

/** A limiter on a clock the test moves. */
function limiterAt(start = 1_000_000) {
  let now = start;
  const limiter = new KeyRateLimiter({ now: () => now });
  return { limiter, advance: (ms: number) => (now += ms) };
}

const takeMany = (limiter: KeyRateLimiter, key: string, times: number) =>
  Array.from({ length: times }, () => limiter.take(key));

describe("the vote API's limit per key (60 a minute, 10 at once)", () => {
  it('takes a burst of 10 at once, counting down, then refuses the 11th with Retry-After 1 s', () => {
    const { limiter } = limiterAt();
    const verdicts = takeMany(limiter, 'a', 11);
    expect(verdicts.slice(0, 10).every((v) => v.allowed)).toBe(true);
    expect(verdicts.slice(0, 10).map((v) => v.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(verdicts[10]).toEqual({ allowed: false, limit: 60, remaining: 0, resetSeconds: 10, retryAfterSeconds: 1 });
  });

  it('gives one request back each second, and the whole burst after 10 s', () => {
    const { limiter, advance } = limiterAt();
    takeMany(limiter, 'a', 10);
    advance(999);
    expect(limiter.take('a').allowed).toBe(false);
    advance(1);
    expect(limiter.take('a')).toMatchObject({ allowed: true, remaining: 0 });
    advance(60_000);
    const refilled = takeMany(limiter, 'a', 11);
    expect(refilled.filter((v) => v.allowed)).toHaveLength(10);
  });

  it('holds a steady 60 a minute and no more', () => {
    const { limiter, advance } = limiterAt();
    let allowed = 0;
    // Two requests a second for a minute, after the burst is spent.
    takeMany(limiter, 'a', 10);
    for (let i = 0; i < 120; i += 1) {
      advance(500);
      if (limiter.take('a').allowed) allowed += 1;
    }
    expect(allowed).toBe(60);
  });

  it("counts each key apart: one key's burst spent leaves another's whole", () => {
    const { limiter } = limiterAt();
    takeMany(limiter, 'a', 11);
    expect(limiter.take('b')).toMatchObject({ allowed: true, remaining: 9 });
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('says in Reset when the whole burst is back: one second per request taken', () => {
    const { limiter, advance } = limiterAt();
    expect(limiter.take('a').resetSeconds).toBe(1);
    expect(takeMany(limiter, 'a', 4).at(-1)!.resetSeconds).toBe(5);
    advance(2_500);
    expect(limiter.take('a')).toMatchObject({ remaining: 6, resetSeconds: 4 });
  });
});
