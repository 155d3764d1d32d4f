import type { ComponentHandler } from '../runtime/context.js';
import { leaderboardPage } from './leaderboard-page.js';
import { reviewReplySubmit } from './review-reply-submit.js';
import { reviewReply } from './review-reply.js';
import { reviewsPage } from './reviews-page.js';
import { setupCredentials } from './setup-credentials.js';
import { setupListingSecret } from './setup-listing-secret.js';
import { setupListing } from './setup-listing.js';
import { setupReset } from './setup-reset.js';
import { votesPage } from './votes-page.js';

/** Every button and modal handler, each keyed by the custom-id prefix that is its file name. */
export const componentHandlers: readonly ComponentHandler[] = [
  votesPage,
  leaderboardPage,
  reviewsPage,
  reviewReply,
  reviewReplySubmit,
  setupCredentials,
  setupListing,
  setupListingSecret,
  setupReset,
];
