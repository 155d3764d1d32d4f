import { CUSTOM_ID_MAX } from './discord-limits.js';

// Custom ids are `prefix:arg`; the prefix names the file in src/interactions that handles it.
// Encoding refuses ids over Discord's limit rather than letting Discord reject the whole message.

export const Prefix = {
  votesPage: 'votes-page',
  leaderboardPage: 'leaderboard-page',
  reviewsPage: 'reviews-page',
  reviewReply: 'review-reply',
  reviewReplySubmit: 'review-reply-submit',
  setupCredentials: 'setup-credentials',
  setupReset: 'setup-reset',
  setupListing: 'setup-listing',
  setupListingSecret: 'setup-listing-secret',
} as const;

export type CustomIdPrefix = (typeof Prefix)[keyof typeof Prefix];

const PREFIX_PATTERN = /^[a-z][a-z-]{0,39}$/;

export interface DecodedCustomId {
  prefix: string;
  arg: string;
}

export function encodeCustomId(prefix: CustomIdPrefix, arg: string): string {
  if (!PREFIX_PATTERN.test(prefix)) throw new Error(`Bad custom id prefix: ${prefix}`);
  const id = `${prefix}:${arg}`;
  if (id.length > CUSTOM_ID_MAX) throw new Error(`Custom id longer than ${CUSTOM_ID_MAX}: ${prefix}`);
  return id;
}

/** Returns null for anything not of the form `prefix:arg`; the arg is checked by its handler. */
export function decodeCustomId(id: string): DecodedCustomId | null {
  if (id.length === 0 || id.length > CUSTOM_ID_MAX) return null;
  const colon = id.indexOf(':');
  if (colon <= 0) return null;
  const prefix = id.slice(0, colon);
  if (!PREFIX_PATTERN.test(prefix)) return null;
  return { prefix, arg: id.slice(colon + 1) };
}
