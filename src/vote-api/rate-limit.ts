import { BoundedMap } from '../core/bounded-map.js';

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

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key: `burst` requests at once, refilled at `perMinute` a minute. In memory:
 * a restart gives every key its burst back, and each receiver process keeps its own buckets.
 */
export class KeyRateLimiter {
  readonly #buckets = new BoundedMap<string, Bucket>({ max: KEYS_KEPT, order: 'used' });
  readonly #perMs: number;
  readonly #burst: number;
  readonly #perMinute: number;
  readonly #now: () => number;

  constructor(options: { perMinute?: number; burst?: number; now?: () => number } = {}) {
    this.#perMinute = options.perMinute ?? API_REQUESTS_PER_MINUTE;
    this.#burst = options.burst ?? API_BURST;
    this.#perMs = this.#perMinute / 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Takes one request from the key's bucket, if it holds one. */
  take(key: string): RateVerdict {
    const now = this.#now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.#burst, at: now };
    bucket.tokens = Math.min(this.#burst, bucket.tokens + Math.max(0, now - bucket.at) * this.#perMs);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    const seconds = (tokens: number) => Math.ceil(Math.max(0, tokens) / this.#perMs / 1000);
    return {
      allowed,
      limit: this.#perMinute,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: seconds(this.#burst - bucket.tokens),
      ...(allowed ? {} : { retryAfterSeconds: Math.max(1, seconds(1 - bucket.tokens)) }),
    };
  }
}
