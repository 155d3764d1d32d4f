import { backoffMs, type BackoffPolicy } from '../work/backoff.js';
import type { ForwardResult } from '../store/index.js';

/**
 * A destination that fails is tried again from a second on, doubling, then every half hour for as
 * long as it takes: "at least 24 h" with no last try (the project's rule: nothing given up by count).
 */
export const FORWARD_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 30 * 60_000 };
/** A Retry-After past this is read as this: a destination cannot park its deliveries for a week. */
export const RETRY_AFTER_MAX_MS = 24 * 3_600_000;

/**
 * When the delivery is tried again after attempt `attempt` (1 = the first send) went as `result`;
 * undefined when it is done: delivered, or given up (a 3xx or a 4xx other than 408 and 429).
 */
export function nextAttemptAt(
  result: ForwardResult,
  attempt: number,
  now: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number | undefined {
  if (result.outcome === 'delivered' || result.outcome === 'gaveUp') return undefined;
  const backoff = backoffMs(attempt, FORWARD_BACKOFF, random);
  return now + Math.max(backoff, Math.min(retryAfterMs ?? 0, RETRY_AFTER_MAX_MS));
}
