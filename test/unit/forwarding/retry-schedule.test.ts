import { describe, expect, it } from '@jest/globals';
import { FORWARD_BACKOFF, nextAttemptAt, RETRY_AFTER_MAX_MS } from '../../../src/forwarding/retry-schedule.js';

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const top = () => 1;

describe('nextAttemptAt', () => {
  it('is done for a delivered or given-up delivery', () => {
    expect(nextAttemptAt({ outcome: 'delivered', status: 204 }, 1, NOW)).toBeUndefined();
    expect(nextAttemptAt({ outcome: 'gaveUp', status: 404 }, 1, NOW)).toBeUndefined();
    expect(nextAttemptAt({ outcome: 'gaveUp', status: 302 }, 1, NOW)).toBeUndefined();
  });

  it('backs off from a second, doubling, to the cap', () => {
    const waits = [1, 2, 3, 12, 40].map(
      (attempt) => nextAttemptAt({ outcome: 'retrying', status: 503 }, attempt, NOW, undefined, top)! - NOW,
    );
    expect(waits.slice(0, 3)).toEqual([1_000, 2_000, 4_000]);
    // 2^11 s is past the half-hour cap.
    expect(waits[3]).toBe(FORWARD_BACKOFF.capMs);
    expect(waits[4]).toBe(FORWARD_BACKOFF.capMs);
  });

  it('keeps retrying past 24 hours: no attempt is the last', () => {
    let at = NOW;
    let attempt = 1;
    while (at - NOW < 30 * HOUR) {
      const next = nextAttemptAt({ outcome: 'retrying', reason: 'timeout' }, attempt, at, undefined, top);
      expect(next).toBeDefined();
      at = next!;
      attempt += 1;
    }
    expect(nextAttemptAt({ outcome: 'refused', reason: 'private' }, attempt, at)).toBeGreaterThan(at);
  });

  it('waits what Retry-After asks when it is longer than the backoff, up to a day', () => {
    expect(nextAttemptAt({ outcome: 'retrying', status: 429 }, 1, NOW, 120_000, top)).toBe(NOW + 120_000);
    expect(nextAttemptAt({ outcome: 'retrying', status: 429 }, 1, NOW, 10, top)).toBe(NOW + 1_000);
    expect(nextAttemptAt({ outcome: 'retrying', status: 503 }, 1, NOW, 30 * 24 * HOUR, top)).toBe(
      NOW + RETRY_AFTER_MAX_MS,
    );
  });
});
