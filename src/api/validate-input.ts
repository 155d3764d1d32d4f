import { isSnowflake } from '../core/snowflake.js';
import { InvalidInputError } from './errors.js';
import type { ReplyInput } from './types.js';

// Checked before any request: a bad id must never become a path like /reviews/../votes.
export { isSnowflake, SNOWFLAKE } from '../core/snowflake.js';
/** Leaves room for `review-reply-submit:<id>` within Discord's 100-character custom ids. */
const REVIEW_ID_MAX = 80;
const WHITESPACE_OR_CONTROL = /[\s\p{Cc}\p{Cf}]/u;
// Spec gap: no reply length limit is given; the bot keeps replies to what its modal allows.
export const REPLY_MIN_LENGTH = 1;
export const REPLY_MAX_LENGTH = 1000;

/** Returns the user id if it is a Discord snowflake; throws InvalidInputError('userId') otherwise. */
export function checkUserId(userId: unknown): string {
  if (!isSnowflake(userId)) {
    throw new InvalidInputError('userId', 'User id must be a Discord snowflake (17–20 digits).');
  }
  return userId;
}

/** Why a review id cannot go into a path (it is URL-encoded there as well), or null when it can. */
function reviewIdProblem(reviewId: unknown): string | null {
  if (typeof reviewId !== 'string' || reviewId.length === 0) return 'Review id must be a non-empty string.';
  if (reviewId.length > REVIEW_ID_MAX) return `Review id must be at most ${REVIEW_ID_MAX} characters.`;
  if (WHITESPACE_OR_CONTROL.test(reviewId)) return 'Review id must not contain spaces or control characters.';
  // '.' and '..' survive encodeURIComponent and would be resolved as path segments.
  if (reviewId === '.' || reviewId === '..') return 'Review id must not be a relative path segment.';
  return null;
}

/** A review id from a custom id or a form, or null: the rule the client applies, so no button carries an id it would refuse. */
export function parseReviewId(arg: string): string | null {
  return reviewIdProblem(arg) === null ? arg : null;
}

/** Returns the review id if it is safe to put in a path; throws InvalidInputError('reviewId') otherwise. */
export function checkReviewId(reviewId: unknown): string {
  const problem = reviewIdProblem(reviewId);
  if (problem !== null) throw new InvalidInputError('reviewId', problem);
  return reviewId as string;
}

/** Returns the reply with its content trimmed; `pinned` must be an explicit boolean. */
export function checkReplyInput(input: unknown): ReplyInput {
  if (typeof input !== 'object' || input === null) {
    throw new InvalidInputError('reply', 'Reply must be an object with content and pinned.');
  }
  const { content, pinned } = input as { content?: unknown; pinned?: unknown };
  if (typeof content !== 'string') {
    throw new InvalidInputError('content', 'Reply content must be a string.');
  }
  const trimmed = content.trim();
  if (trimmed.length < REPLY_MIN_LENGTH || trimmed.length > REPLY_MAX_LENGTH) {
    throw new InvalidInputError(
      'content',
      `Reply content must be ${REPLY_MIN_LENGTH}–${REPLY_MAX_LENGTH} characters after trimming (got ${trimmed.length}).`,
    );
  }
  if (typeof pinned !== 'boolean') {
    throw new InvalidInputError('pinned', 'Reply pinned must be true or false.');
  }
  return { content: trimmed, pinned };
}
