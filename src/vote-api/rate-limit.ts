import { TokenBuckets } from '../core/token-buckets.js';

/** What one key may ask: 60 requests a minute, 10 at once (docs/api.md, "Limits"). */
export const API_REQUESTS_PER_MINUTE = 60;
export const API_BURST = 10;
/** Keys whose buckets are kept; one dropped is full again, which only a holder of that many keys gains from. */
const KEYS_KEPT = 100_000;

/** Whether a request may go on, and the X-RateLimit-* and Retry-After figures its answer carries. */
export interface RateVerdict {
  readonly allowed: boolean;
  /** Requests a minute. */
  readonly limit: number;
  /** Requests that may be made at once now. */
  readonly remaining: number;
  /** Seconds until the key has its whole burst again. */
  readonly resetSeconds: number;
  /** Refused only: seconds until the next request is taken. */
  readonly retryAfterSeconds?: number;
}

/** A token bucket per key (src/core/token-buckets.ts), with the figures the answer's headers carry. */
export class KeyRateLimiter {
  readonly #buckets: TokenBuckets;

  constructor(options: { perMinute?: number; burst?: number; now?: () => number } = {}) {
    const size = { capacity: options.burst ?? API_BURST, perMinute: options.perMinute ?? API_REQUESTS_PER_MINUTE };
    this.#buckets = new TokenBuckets(size, { max: KEYS_KEPT, order: 'used' }, options.now);
  }

  /** Takes one request from the key's bucket, if it holds one. */
  take(key: string): RateVerdict {
    const { allowed, remaining, resetSeconds, retryAfterSeconds } = this.#buckets.take(key);
    const limit = this.#buckets.size.perMinute;
    return { allowed, limit, remaining, resetSeconds, ...(allowed ? {} : { retryAfterSeconds }) };
  }
}
