// The sandbox's seed fixtures (src/sandbox/seed.json) that tests name: one place, so a change
// to the seed is one change here.

/** Has an active vote and a review. */
export const VOTER = '284102390141648897';
export const VOTER_REVIEW = 'rev_7Hq2LmX9';
/** Has neither a vote nor a review. */
export const NOBODY = '412958623017041920';
/** Has written a review with markdown, a mention and replies. */
export const CRITIC = '593031275438718986';
export const CRITIC_REVIEW = 'rev_Kd81PzQ4';
