import pRetry, { AbortError } from 'p-retry';
import { sleep } from './deadline.js';
import { RateLimitedError, ServiceError, ServiceUnavailableError } from './errors.js';
import type { HttpRequest, RawResponse, Send } from './request.js';
import type { CallBudget } from './types.js';
import { TransportFailure } from './request.js';
import type { BackoffSettings } from './retry-policy.js';
import { backoffOptions, exhausted, RetryableFailure } from './retry-policy.js';

/** The time a call may still use: a signal aborting with a ServiceUnavailableError, and the ms left. */
export type CallContext = CallBudget;

/** One call: the request, what its answers mean, and what a failed transport means for it. */
export interface AttemptPlan<T> {
  request: HttpRequest;
  /** For messages: the route as the spec writes it, e.g. GET /votes/{user_id}. */
  describe: string;
  read: (response: RawResponse) => T;
  onTransportFailure: (failure: TransportFailure) => Error;
}

/**
 * Sends a request until it gives a final answer: a result or a ServiceError. A RetryableFailure
 * is retried with backoff (p-retry) while retries and budget last; a Retry-After is waited out
 * first, or, when it reaches past the budget, ends the call at once instead of sleeping in vain.
 */
export function runAttempts<T>(
  send: Send,
  plan: AttemptPlan<T>,
  call: CallContext,
  backoff: BackoffSettings,
): Promise<T> {
  let attempts = 0;
  // Final outcomes are wrapped in AbortError: p-retry rethrows the wrapped error untouched and calls no hook.
  const outcome = (error: unknown): never => {
    const failure = error instanceof TransportFailure ? plan.onTransportFailure(error) : (error as Error);
    throw failure instanceof RetryableFailure ? failure : new AbortError(failure);
  };
  const attempt = (attemptNumber: number): Promise<T> => {
    attempts = attemptNumber;
    return send(plan.request, attemptNumber, call).then(plan.read).catch(outcome);
  };

  return pRetry(attempt, {
    ...backoffOptions(backoff),
    maxRetryTime: call.remaining(),
    signal: call.signal,
    onFailedAttempt: async ({ error, retriesLeft }) => {
      if (!(error instanceof RetryableFailure) || error.retryAfterMs === undefined || retriesLeft <= 0) return;
      const left = Math.floor(call.remaining());
      if (error.retryAfterMs >= left) {
        const message = `${plan.describe}: the service asked to wait ${error.retryAfterMs} ms before trying again (HTTP ${error.status}), more than the ${left} ms left for this call.`;
        // A 429 is the service asking the bot to slow down; a 503 says it is not answering.
        throw error.status === 429
          ? new RateLimitedError(error.retryAfterMs, message, error.status)
          : new ServiceUnavailableError('timeout', message, error.status);
      }
      await sleep(error.retryAfterMs, call.signal);
    },
  }).catch((error: unknown) => {
    if (error instanceof RetryableFailure) throw exhausted(error, plan.describe, attempts);
    if (error instanceof ServiceError) throw error;
    if (call.signal.aborted) throw call.signal.reason as ServiceUnavailableError;
    throw error;
  });
}
