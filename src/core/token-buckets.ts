import { BoundedMap, type BoundedMapOptions } from './bounded-map.js';

/** A burst of `capacity` requests at once, then `perMinute` a minute. */
export interface BucketSize {
  readonly capacity: number;
  readonly perMinute: number;
}

/** One request taken from a key's bucket, or refused, and what the bucket holds after it. */
export interface Taken {
  readonly allowed: boolean;
  /** Requests that may be made at once now. */
  readonly remaining: number;
  /** Seconds until the bucket is full again. */
  readonly resetSeconds: number;
  /** Seconds until the next request is taken: 0 when this one was. */
  readonly retryAfterSeconds: number;
}

/**
 * The table's bound where the keys are addresses or members: a flood of them empties it rather than
 * growing it, which only lets those keys start afresh.
 */
export const FLOOD_BOUND = { max: 50_000, whenFull: 'clear' } as const;

/**
 * Token buckets by key (an API key, an IP address, a member id), kept in memory per process: a
 * restart fills every bucket. `kept` bounds the table; a key dropped from it starts with a full
 * bucket, which only a holder of that many keys gains from.
 */
export class TokenBuckets {
  readonly #buckets: BoundedMap<string, { tokens: number; at: number }>;
  readonly #perMs: number;

  constructor(
    readonly size: BucketSize,
    kept: Omit<BoundedMapOptions, 'now'>,
    private readonly now: () => number = Date.now,
  ) {
    this.#buckets = new BoundedMap(kept);
    this.#perMs = size.perMinute / 60_000;
  }

  take(key: string): Taken {
    const now = this.now();
    const { capacity } = this.size;
    const kept = this.#buckets.get(key) ?? { tokens: capacity, at: now };
    const tokens = Math.min(capacity, kept.tokens + Math.max(0, now - kept.at) * this.#perMs);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.#buckets.set(key, { tokens: left, at: now });
    const seconds = (count: number) => Math.ceil(Math.max(0, count) / this.#perMs / 1000);
    return {
      allowed,
      remaining: Math.floor(left),
      resetSeconds: seconds(capacity - left),
      retryAfterSeconds: allowed ? 0 : Math.max(1, seconds(1 - left)),
    };
  }
}
