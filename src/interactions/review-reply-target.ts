import { parseReviewId } from '../api/index.js';

/** What the Reply button and the reply form share: a review id in the custom id, for moderators only. */
export const reviewReplyTarget = { parse: parseReviewId, gate: 'moderator' } as const;
