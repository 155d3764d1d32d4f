/** The sandbox's rate-limit mode: `limit` requests per fixed window of `windowMs`. */
export interface RateLimitOptions {
  limit: number;
  windowMs: number;
}

export interface RateLimitDecision {
  /** False when the window was already closed: the request is answered 429. */
  allowed: boolean;
  headers: Record<string, string>;
}

/**
 * Fixed windows, as the real service describes its limit: a window opens with the first request
 * after the previous one ended and allows `limit` requests. Every response carries
 * x-ratelimit-limit, -remaining and -reset (whole seconds until the window resets, rounded up);
 * a request that arrives while the window is closed is a violation, answered 429 with
 * Retry-After. The real service bans a guild for repeated violations: the count is the figure
 * tests and the bench hold the bot to.
 */
export class RateLimitWindow {
  private windowEnd = 0;
  private used = 0;
  private violationCount = 0;

  constructor(private readonly options: RateLimitOptions) {
    if (!Number.isInteger(options.limit) || options.limit < 1) throw new Error('rate limit must be 1 or more');
    if (!(options.windowMs > 0)) throw new Error('rate-limit window must be a positive number of ms');
  }

  get violations(): number {
    return this.violationCount;
  }

  take(now: number): RateLimitDecision {
    if (now >= this.windowEnd) {
      this.windowEnd = now + this.options.windowMs;
      this.used = 0;
    }
    const allowed = this.used < this.options.limit;
    if (allowed) this.used += 1;
    else this.violationCount += 1;
    // Whole ms first: (now + windowMs) - now can come out a hair above windowMs in floating point.
    const reset = String(Math.ceil(Math.round(this.windowEnd - now) / 1000));
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(this.options.limit),
      'x-ratelimit-remaining': String(this.options.limit - this.used),
      'x-ratelimit-reset': reset,
    };
    if (!allowed) headers['retry-after'] = reset;
    return { allowed, headers };
  }
}
