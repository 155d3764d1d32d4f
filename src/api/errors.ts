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

export type UnavailableReason = 'retries_exhausted' | 'circuit_open' | 'timeout' | 'aborted';

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
