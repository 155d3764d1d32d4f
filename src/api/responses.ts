import {
  InvalidResponseError,
  ReplyOutcomeUnknownError,
  ReplyRefusedError,
  ReviewNotFoundError,
  UnauthorizedError,
} from './errors.js';
import type { RawResponse } from './request.js';
import { RETRYABLE_GET_STATUSES, retryableStatus } from './retry-policy.js';
import { describeIssues, isNoReview, readErrorBody, readReplyBody, readReviewBody, type Reader } from './schemas.js';
import type { Reply, Review } from './types.js';

// What each answer means, route by route. A function here returns the result or throws: a
// ServiceError (final) or a RetryableFailure (the retry policy decides whether to try again).

type Body = { ok: true; value: unknown } | { ok: false };

/** Parses the body as JSON; an empty body reads as undefined. */
function parseBody(text: string): Body {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function invalid(what: string, response: RawResponse, why: string): InvalidResponseError {
  return new InvalidResponseError(`${what} answered HTTP ${response.status} with ${why}.`, response.status);
}

/** Statuses every GET shares: 401 is final, the transient ones are retryable. */
function checkGetStatus(response: RawResponse): void {
  // Gap: the 401 body may or may not carry `message`; it is not read at all.
  if (response.status === 401) throw new UnauthorizedError();
  if (RETRYABLE_GET_STATUSES.has(response.status)) throw retryableStatus(response);
}

/** A 2xx JSON body read with `reader`; anything else is an invalid response, never retried. */
export function readGet<T>(reader: Reader<T>, what: string) {
  return (response: RawResponse): T => {
    checkGetStatus(response);
    if (response.status < 200 || response.status > 299) throw invalid(what, response, 'an unexpected status');
    const body = parseBody(response.text);
    if (!body.ok) throw invalid(what, response, 'a body that is not JSON');
    return readBody(reader, body.value, what, response);
  };
}

/** `value` as `reader` reads it; a body it cannot read is an invalid response, never retried. */
function readBody<T>(reader: Reader<T>, value: unknown, what: string, response: RawResponse): T {
  const read = reader(value);
  if (!read.ok) throw invalid(what, response, `a body the client cannot read (${describeIssues(read.issues)})`);
  return read.value;
}

/**
 * GET /reviews/{user_id}. Gap: "no review" is not shown, so 404 (any body) and an empty, `null`,
 * `{}` or `{error}` body with a 2xx or another non-retryable 4xx all mean "no review".
 */
export function readReview(response: RawResponse): Review | null {
  const what = 'GET /reviews/{user_id}';
  checkGetStatus(response);
  if (response.status === 404) return null;
  const success = response.status >= 200 && response.status <= 299;
  // A redirect (never followed) or an informational status is not an answer about the review.
  if (!success && (response.status < 400 || response.status > 499)) {
    throw invalid(what, response, 'an unexpected status');
  }
  const body = parseBody(response.text);
  if (!body.ok) throw invalid(what, response, 'a body that is not JSON');
  if (isNoReview(body.value)) return null;
  if (!success) throw invalid(what, response, 'an unexpected status');
  return readBody(readReviewBody, body.value, what, response);
}

/**
 * POST /reviews/{review_id}. Gap: the statuses of its outcomes are not shown, so the body decides
 * where it can: "Unknown Review" at any status is a missing review, "Internal Server Error" a fault.
 */
export function readReply(reviewId: string) {
  const what = 'POST /reviews/{review_id}';
  return (response: RawResponse): Reply => {
    if (response.status === 401) throw new UnauthorizedError();
    const body = parseBody(response.text);
    const error = body.ok ? readErrorBody(body.value) : undefined;
    const errorText = error?.ok ? error.value.error : undefined;
    if (errorText === 'Unknown Review') throw new ReviewNotFoundError(reviewId);
    // Rate limited: the service refused before acting, so the policy may send it again.
    if (response.status === 429) throw retryableStatus(response);
    if (response.status >= 500 || errorText === 'Internal Server Error') {
      throw new ReplyOutcomeUnknownError(
        reviewId,
        `The reply to review ${reviewId} may or may not have been posted: the service failed (HTTP ${response.status}).`,
        response.status,
      );
    }
    if (response.status >= 200 && response.status <= 299) {
      const reply = body.ok ? readReplyBody(body.value) : undefined;
      if (reply?.ok) return { id: reply.value.id };
      // A 2xx says the service acted; without an id we cannot show the reply, but sending it
      // again would likely post it twice, so the moderator is told to check first.
      throw new ReplyOutcomeUnknownError(
        reviewId,
        `The service accepted the reply to review ${reviewId} (HTTP ${response.status}) without returning its id.`,
        response.status,
      );
    }
    if (errorText !== undefined && response.status < 500) {
      throw new ReplyRefusedError(printable(errorText));
    }
    throw invalid(what, response, body.ok ? 'a body without a reply id' : 'a body that is not JSON');
  };
}

/** The service's own error text, shown to a moderator: control characters out, length bounded. */
function printable(text: string): string {
  const clean = text.replace(/[\p{Cc}\p{Cf}]+/gu, ' ').trim();
  return clean.length > 200 ? `${clean.slice(0, 199)}…` : clean;
}
