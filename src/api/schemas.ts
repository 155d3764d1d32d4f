import {
  arrayOf,
  boolean,
  count,
  objectReader,
  isObject,
  nonEmptyString,
  nullish,
  number,
  string,
  Wrong,
  type Field,
  type Reader,
} from '../core/read-shape.js';
import type { Reply, Review, VoteEntry, VoteList, VoteStatus } from './types.js';

export { describeIssues, type Issue, type Read, type Reader } from '../core/read-shape.js';

// Wire shapes, read tolerantly: the spec leaves much "not shown", so each tolerance below names the
// gap it covers. Unknown extra fields are ignored everywhere (a reader takes only the fields it
// names): the spec does not promise a closed set of fields, and a field added by the service must
// not break the bot.

const nullishBoolean = nullish(boolean);
const nullishNumber = nullish(number);

/** A time left in ms. Gap: `remaining` may be null or absent; negatives (clock skew) read as 0. */
const remainingMs: Field<number | null> = (value) => {
  const ms = nullishNumber(value);
  if (ms instanceof Wrong) return ms;
  return ms == null ? null : Math.max(0, Math.round(ms));
};

/** GET /votes/{user_id}. Gap: `voted` is not marked required; absent (or null) means not voted. */
export const readVoteStatus: Reader<VoteStatus> = objectReader((at) => {
  const voted = at.field('voted', nullishBoolean);
  const remaining = at.field('remaining', remainingMs);
  return at.done(() => ({ voted: voted ?? false, remainingMs: remaining }));
});

/**
 * One list entry. Gap: the platform flag is "named with the chat platform's name in lower case",
 * i.e. `discord`; absent means false. Gap: the unit of an entry's `remaining` is stated nowhere;
 * it is read as milliseconds, like the single check, so one formatter renders both.
 */
const readVoteEntry: Reader<VoteEntry> = objectReader((at) => {
  const userId = at.field('userId', nonEmptyString);
  const remaining = at.field('remaining', remainingMs);
  const discord = at.field('discord', nullishBoolean);
  return at.done(() => ({ userId, remainingMs: remaining, viaDiscord: discord ?? false }));
});

const readVoteEntries = arrayOf(readVoteEntry);

/** GET /votes. Gap: pagination and ordering are not shown; the list is taken whole and ordered by the client. */
export const readVoteList: Reader<VoteList> = objectReader((at) => {
  const totalVotes = at.field('totalVotes', count);
  const monthlyVotes = at.field('monthlyVotes', count);
  const votes = at.nested('votes', readVoteEntries);
  return at.done(() => ({ totalVotes, monthlyVotes, votes }));
});

const NOT_A_RATING = new Wrong('expected a whole number from 1 to 5');
const rating: Field<number> = (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 5 ? value : NOT_A_RATING;

const NOT_A_DATE_TIME = new Wrong('expected an ISO 8601 date-time');
const dateTime: Field<Date> = (value) => {
  if (typeof value !== 'string') return NOT_A_DATE_TIME;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? NOT_A_DATE_TIME : date;
};

/**
 * GET /reviews/{user_id}. `created_at` becomes a Date; one that does not parse is a broken
 * response, not a review without a date. The spec's 200-character content limit is the service's
 * to enforce, so a longer text is accepted (views truncate what they show).
 */
export const readReviewBody: Reader<Review> = objectReader((at) => {
  const {
    id,
    rating: stars,
    content,
    likes,
    replies,
    created_at: createdAt,
    authorId,
  } = at.fields({
    id: nonEmptyString,
    rating,
    content: string,
    likes: count,
    replies: count,
    created_at: dateTime,
    authorId: nonEmptyString,
  });
  return at.done(() => ({ id, rating: stars, content, likes, replies, createdAt, authorId }));
});

/**
 * Gap: the answer for a user without a review is not shown. An empty body (read as undefined),
 * `null`, `{}` (no keys at all) or an `{error}` body (a string `error`, other keys ignored) all
 * mean "no review".
 */
export function isNoReview(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (!isObject(value)) return false;
  return typeof value.error === 'string' || Object.keys(value).length === 0;
}

/** POST /reviews/{id} success. Gap: the success status is not shown; any 2xx with an id counts. */
export const readReplyBody: Reader<Reply> = objectReader((at) => {
  const id = at.field('id', nonEmptyString);
  return at.done(() => ({ id }));
});

/** The `{error}` body the spec gives for POST failures (and 401s). */
export const readErrorBody: Reader<{ error: string }> = objectReader((at) => {
  const error = at.field('error', string);
  return at.done(() => ({ error }));
});
