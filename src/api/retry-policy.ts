import { InvalidResponseError, ReplyOutcomeUnknownError, ServiceUnavailableError } from './errors.js';
import type { TransportFailure } from './request.js';
import type { RawResponse } from './request.js';
import { parseRetryAfter } from './retry-after.js';

/** Statuses worth another GET: the request was fine, the service was not (ky's list, minus 413). */
export const RETRYABLE_GET_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
/** Statuses whose Retry-After is honoured. */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** An attempt that failed in a way worth retrying; internal, never leaves the client. */
export class RetryableFailure extends Error {
  constructor(
    readonly detail: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
    readonly timedOut = false,
  ) {
    super(detail);
    this.name = 'RetryableFailure';
  }
}

export function retryableStatus(response: RawResponse): RetryableFailure {
  const retryAfterMs = RETRY_AFTER_STATUSES.has(response.status)
    ? parseRetryAfter(response.headers.get('retry-after'))
    : undefined;
  return new RetryableFailure(`HTTP ${response.status}`, response.status, retryAfterMs);
}

/** GET is idempotent: every transport failure may be retried, except the call's own deadline. */
export function getTransportOutcome(failure: TransportFailure, callSignal: AbortSignal): Error {
  if (failure.kind === 'deadline') return callSignal.reason as ServiceUnavailableError;
  // The same request would get the same oversized answer: final, not retried.
  if (failure.kind === 'too_large') return tooLarge(failure);
  return new RetryableFailure(
    failure.kind === 'attempt_timeout' ? 'attempt timed out' : failure.detail,
    failure.status,
    undefined,
    failure.kind === 'attempt_timeout',
  );
}

/**
 * POST is not idempotent: sent again only when it provably never reached the service (connection
 * refused, name not resolved). After a timeout, a reset or a cancelled call it may have been
 * posted, and a second send could post it twice.
 */
export function postTransportOutcome(failure: TransportFailure, reviewId: string): Error {
  if (failure.kind === 'refused' || failure.kind === 'dns') {
    return new RetryableFailure(failure.detail, failure.status);
  }
  const why =
    failure.kind === 'too_large'
      ? `its answer (HTTP ${failure.status}) was larger than the client reads`
      : failure.kind === 'attempt_timeout'
        ? 'the service did not answer in time'
        : failure.kind === 'deadline'
          ? 'the call was stopped while the request was in flight'
          : `the connection failed mid-request (${failure.detail})`;
  return new ReplyOutcomeUnknownError(
    reviewId,
    `The reply to review ${reviewId} may or may not have been posted: ${why}.`,
    failure.status,
  );
}

function tooLarge(failure: TransportFailure): InvalidResponseError {
  return new InvalidResponseError(
    `The service answered HTTP ${failure.status} with a body larger than the client reads (SERVICE_MAX_RESPONSE_BYTES); it was not read further.`,
    failure.status,
  );
}

export interface BackoffSettings {
  retries: number;
  minRetryDelayMs: number;
  maxRetryDelayMs: number;
}

/** p-retry's exponential backoff with jitter (each delay times a random factor in [1, 2)). */
export function backoffOptions(settings: BackoffSettings) {
  return {
    retries: settings.retries,
    factor: 2,
    minTimeout: settings.minRetryDelayMs,
    maxTimeout: settings.maxRetryDelayMs,
    randomize: true,
  };
}

/** The error a call ends with when its last attempt was still retryable but no retry is left. */
export function exhausted(failure: RetryableFailure, what: string, attempts: number): ServiceUnavailableError {
  const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
  return failure.timedOut
    ? new ServiceUnavailableError('timeout', `${what}: the service did not answer in time (${tries}).`, failure.status)
    : new ServiceUnavailableError(
        'retries_exhausted',
        `${what}: still failing after ${tries} (${failure.detail}).`,
        failure.status,
      );
}
