import { RateLimitedError } from './errors.js';
import type { CallBudget, RateLimitEvent, ResponseHeaders } from './types.js';
import { parseRetryAfter } from './retry-after.js';

/** What a call has left: the limiter waits only as long as that allows. */
type Budget = CallBudget;

/**
 * The service's rate limit, as its headers tell it: `x-ratelimit-limit`, `x-ratelimit-remaining`,
 * `x-ratelimit-reset` (seconds until the window resets) on every response, and `retry-after`
 * (seconds) on a 429. One limiter per client, and every request goes through it: GETs, retries,
 * the reply POST, breaker trials and the start-up check. While the window is closed no request
 * leaves: a call waits when its budget allows, else fails at once with RateLimitedError. Repeated
 * violations get a guild banned for good, so the limiter errs on the side of sending less:
 * - until a response has described the current window, one request is in flight at a time;
 * - requests in flight are counted against what the last response said was left;
 * - when a window's reset time passes, the next window is unknown again until a response says.
 * A service that sends no rate-limit headers is not limited (the spec's sandbox, by default).
 */
export class RateLimiter {
  /** Whether a response has described the current window. */
  private known = false;
  /** Requests the current window still allows, in-flight ones already taken off. */
  private left = 0;
  private resetAt = 0;
  /** After a 429: nothing leaves before this. */
  private blockedUntil = 0;
  private inFlight = 0;
  /** Set once any response carried rate-limit headers: from then on, a response without them says nothing. */
  private limited = false;
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly onEvent?: (event: RateLimitEvent) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Takes a slot at once when the window is open (counted as sent, like acquire()), without the
   * promise acquire() needs: most requests never wait. False when the request must go through acquire().
   */
  tryAcquire(budget: Budget): boolean {
    if (budget.signal.aborted) return false;
    const now = this.now();
    if (this.closedFor(now) > 0 || this.awaitingWindow()) return false;
    this.take();
    return true;
  }

  /**
   * Resolves when a request may leave, and counts it as sent: every acquire() must be followed by
   * exactly one settle(). Throws RateLimitedError when the wait is longer than the budget, or the
   * budget's signal reason when it ends while waiting.
   */
  async acquire(budget: Budget): Promise<void> {
    const started = this.now();
    let waited = false;
    for (;;) {
      if (budget.signal.aborted) throw budget.signal.reason as Error;
      const now = this.now();
      const closedFor = this.closedFor(now);
      if (closedFor > 0) {
        // Waiting is worth it only if the request still has time to run after the wait.
        if (closedFor + MIN_REQUEST_MS >= budget.remaining()) {
          this.report({ outcome: 'failed_fast', waitMs: Math.round(now - started + closedFor) });
          throw new RateLimitedError(closedFor);
        }
        waited = true;
        await this.change(closedFor, budget.signal);
        continue;
      }
      if (this.awaitingWindow()) {
        waited = true;
        await this.change(budget.remaining(), budget.signal);
        continue;
      }
      this.take();
      if (waited) this.report({ outcome: 'waited', waitMs: Math.round(this.now() - started) });
      return;
    }
  }

  /** How long nothing may leave: a 429's wait, or a known window with nothing left until it resets. */
  private closedFor(now: number): number {
    if (this.known && this.resetAt <= now) this.known = false;
    return Math.max(this.blockedUntil - now, this.known && this.left <= 0 ? this.resetAt - now : 0);
  }

  /** The window is unknown and a request is out to learn it: the next waits for its answer. */
  private awaitingWindow(): boolean {
    return !this.known && this.inFlight > 0;
  }

  private take(): void {
    this.inFlight += 1;
    if (this.known) this.left -= 1;
  }

  /** A request acquire() let through has ended: with its response's headers, or without a response. */
  settle(response?: { status: number; headers: ResponseHeaders }): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (response) this.read(response.status, response.headers);
    // A copy, as each waker removes itself; none is made when nobody waits (most settles).
    if (this.wakers.size > 0) for (const wake of [...this.wakers]) wake();
  }

  private read(status: number, headers: ResponseHeaders): void {
    const now = this.now();
    const remaining = headerNumber(headers.get('x-ratelimit-remaining'));
    const resetMs = secondsToMs(headers.get('x-ratelimit-reset'));
    if (remaining !== undefined && resetMs !== undefined) {
      // In-flight requests may not be counted in this answer yet: count them, to be safe.
      const left = Math.max(0, Math.floor(remaining) - this.inFlight);
      this.left = this.known ? Math.min(this.left, left) : left;
      this.resetAt = now + resetMs;
      this.known = true;
      this.limited = true;
    } else if (!this.limited && status !== 429) {
      // No limit announced (and none ever was): nothing to keep to.
      this.known = true;
      this.left = Number.POSITIVE_INFINITY;
      this.resetAt = Number.POSITIVE_INFINITY;
    }
    if (status === 429) {
      const waitMs = parseRetryAfter(headers.get('retry-after')) ?? resetMs ?? FALLBACK_429_WAIT_MS;
      // The wait covers it; the window itself is whatever the headers (if any) said above.
      this.blockedUntil = Math.max(this.blockedUntil, now + waitMs);
    }
  }

  /** Resolves on the next settle() or after `ms`; rejects with the signal's reason. */
  private change(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.wakers.delete(wake);
      };
      const wake = () => {
        cleanup();
        resolve();
      };
      const onAbort = () => {
        cleanup();
        reject(signal.reason as Error);
      };
      const timer = setTimeout(wake, Math.max(1, Math.ceil(ms)));
      // A waiting call must never keep the process alive on shutdown.
      timer.unref();
      this.wakers.add(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private report(event: RateLimitEvent): void {
    try {
      this.onEvent?.(event);
    } catch {
      // Deliberately ignored: metrics are best effort.
    }
  }
}

/** Time a request needs after a wait for the wait to be worth it. */
const MIN_REQUEST_MS = 250;

/** A 429 that says neither retry-after nor reset: wait this long before anything else leaves. */
const FALLBACK_429_WAIT_MS = 1_000;

function headerNumber(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}

function secondsToMs(value: string | null): number | undefined {
  const s = headerNumber(value);
  return s === undefined ? undefined : Math.ceil(s * 1000);
}
