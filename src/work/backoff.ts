/**
 * How long to wait before try `attempt` (1 = the first retry): doubling from `baseMs`, capped at
 * `capMs`, with jitter so many lanes failing together do not retry together. There is no last try:
 * transient failures are retried until they succeed, at the cap's pace.
 */
export interface BackoffPolicy {
  readonly baseMs: number;
  readonly capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 5 * 60_000 };

export function backoffMs(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF, random = Math.random): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  // Half fixed, half random: never much sooner than the schedule, never in lockstep.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** A store that failed is usually back within seconds (a restart, a failover): it is asked again soon. */
export const STORE_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 5_000 };
