/** Base of every error the service client throws; `code` is stable for mapping to user messages. */
export abstract class ServiceError extends Error {
  abstract readonly code: string;
}

/** Rejected before any request: a malformed id or reply. `field` names the bad input. */
export class InvalidInputError extends ServiceError {
  readonly code = 'invalid_input';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidInputError';
  }
}

/**
 * The service refused a reply with an `{error}` text of its own. The text is the service's, not
 * the bot's: `serviceText` is kept apart (control characters out, at most 200 characters) so
 * whoever shows it can make it safe for where it is shown.
 */
export class ReplyRefusedError extends InvalidInputError {
  constructor(readonly serviceText: string) {
    super('reply', `The service refused the reply: ${serviceText}`);
    this.name = 'ReplyRefusedError';
  }
}

/** The service answered 401: the API key or app id is wrong or has lapsed. */
export class UnauthorizedError extends ServiceError {
  readonly code = 'unauthorized';
  constructor(readonly status = 401) {
    super('The service rejected the API key or app id (HTTP 401).');
    this.name = 'UnauthorizedError';
  }
}

export class ReviewNotFoundError extends ServiceError {
  readonly code = 'review_not_found';
  constructor(readonly reviewId: string) {
    super(`Review ${reviewId} does not exist.`);
    this.name = 'ReviewNotFoundError';
  }
}

export type UnavailableReason = 'retries_exhausted' | 'circuit_open' | 'timeout' | 'aborted' | 'rate_limited';

/** The service did not answer usefully in time: retries spent, budget gone, or the circuit is open. */
export class ServiceUnavailableError extends ServiceError {
  readonly code = 'service_unavailable';
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ServiceUnavailableError';
  }
}

/** The service answered, but not in a shape the spec allows. */
export class InvalidResponseError extends ServiceError {
  readonly code = 'invalid_response';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'InvalidResponseError';
  }
}

/** A reply POST may have reached the service (timeout, reset, 5xx): it is not sent again. */
export class ReplyOutcomeUnknownError extends ServiceError {
  readonly code = 'reply_outcome_unknown';
  constructor(
    readonly reviewId: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ReplyOutcomeUnknownError';
  }
}

/**
 * The service's rate limit allows no request for longer than the call may wait (its window is
 * closed, or a 429's Retry-After reaches past the budget), so the call ends without sending
 * anything more. `retryAfterMs`: how long until a request may leave again.
 */
export class RateLimitedError extends ServiceUnavailableError {
  constructor(
    readonly retryAfterMs: number,
    message = `The service's rate limit allows no request for another ${Math.ceil(retryAfterMs / 1000)} s; the call was not sent.`,
    status?: number,
  ) {
    super('rate_limited', message, status);
    this.name = 'RateLimitedError';
  }

  /** Whole seconds, at least 1: what a member is told to wait. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.retryAfterMs / 1000));
  }
}
