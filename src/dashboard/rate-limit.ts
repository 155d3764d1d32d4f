import { BoundedMap } from '../core/bounded-map.js';

/** A burst of `capacity`, then `perMinute` a minute: for one IP address or one member. */
export interface BucketSize {
  readonly capacity: number;
  readonly perMinute: number;
}

/**
 * Token buckets by key (an IP address, a member id). Kept in memory per process and bounded: a flood
 * of addresses empties the table rather than growing it, which only lets those addresses start afresh.
 */
export class TokenBuckets {
  readonly #buckets = new BoundedMap<string, { tokens: number; at: number }>({ max: 50_000, whenFull: 'clear' });

  constructor(
    private readonly size: BucketSize,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when the request may go ahead (and is counted), else the seconds until it may. */
  take(key: string): number {
    const now = this.now();
    const perMs = this.size.perMinute / 60_000;
    const kept = this.#buckets.get(key) ?? { tokens: this.size.capacity, at: now };
    const tokens = Math.min(this.size.capacity, kept.tokens + (now - kept.at) * perMs);
    if (tokens < 1) {
      this.#buckets.set(key, { tokens, at: now });
      return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
    }
    this.#buckets.set(key, { tokens: tokens - 1, at: now });
    return 0;
  }
}
