import { z } from 'zod';
import type { Review, VoteEntry, VoteStatus } from './types.js';

// Wire shapes, read tolerantly: the spec leaves much "not shown", so each tolerance below names the
// gap it covers. Unknown extra fields are ignored everywhere (z.object strips them): the spec does
// not promise a closed set of fields, and a field added by the service must not break the bot.

/** A time left in ms. Gap: `remaining` may be null or absent; negatives (clock skew) read as 0. */
const remainingMs = z
  .number()
  .nullish()
  .transform((ms) => (ms == null ? null : Math.max(0, Math.round(ms))));

const count = z.number().int().nonnegative();

/** GET /votes/{user_id}. Gap: `voted` is not marked required; absent (or null) means not voted. */
export const voteStatusSchema = z
  .object({
    voted: z.boolean().nullish(),
    remaining: remainingMs,
  })
  .transform((wire): VoteStatus => ({ voted: wire.voted ?? false, remainingMs: wire.remaining }));

/**
 * One list entry. Gap: the platform flag is "named with the chat platform's name in lower case",
 * i.e. `discord`; absent means false. Gap: the unit of an entry's `remaining` is stated nowhere;
 * it is read as milliseconds, like the single check, so one formatter renders both.
 */
const voteEntrySchema = z
  .object({
    userId: z.string().min(1),
    remaining: remainingMs,
    discord: z.boolean().nullish(),
  })
  .transform((wire): VoteEntry => ({
    userId: wire.userId,
    remainingMs: wire.remaining,
    viaDiscord: wire.discord ?? false,
  }));

/** GET /votes. Gap: pagination and ordering are not shown; the list is taken whole and ordered by the client. */
export const voteListSchema = z.object({
  totalVotes: count,
  monthlyVotes: count,
  votes: z.array(voteEntrySchema),
});

/**
 * GET /reviews/{user_id}. `created_at` becomes a Date; one that does not parse is a broken
 * response, not a review without a date. The spec's 200-character content limit is the service's
 * to enforce, so a longer text is accepted (views truncate what they show).
 */
export const reviewSchema = z
  .object({
    id: z.string().min(1),
    rating: z.number().int().min(1).max(5),
    content: z.string(),
    likes: count,
    replies: count,
    created_at: z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'expected an ISO 8601 date-time'),
    authorId: z.string().min(1),
  })
  .transform((wire): Review => ({
    id: wire.id,
    rating: wire.rating,
    content: wire.content,
    likes: wire.likes,
    replies: wire.replies,
    createdAt: new Date(wire.created_at),
    authorId: wire.authorId,
  }));

/**
 * Gap: the answer for a user without a review is not shown. An empty body (read as undefined),
 * `null`, `{}` or an `{error}` body all mean "no review".
 */
export const noReviewSchema = z.union([z.undefined(), z.null(), z.strictObject({}), z.object({ error: z.string() })]);

/** POST /reviews/{id} success. Gap: the success status is not shown; any 2xx with an id counts. */
export const replySchema = z.object({ id: z.string().min(1) });

/** The `{error}` body the spec gives for POST failures (and 401s). */
export const errorBodySchema = z.object({ error: z.string() });

/** A short, value-free description of why a body failed a schema, for InvalidResponseError. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
}
