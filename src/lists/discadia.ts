// Discadia: no header and no signature, so the address itself is the secret: the bot makes one and
// the admin pastes `<listing address>/<secret>` as the vote webhook. Body `{user_id, guild_id,
// server_title, server_slug, vote_url}`. The site can send one vote more than once in quick
// succession, so repeats by one member within an hour are one vote.
// Source: discadia.com/help/vote-webhooks, as quoted by two bots that take these deliveries (found
// through the code search: a Discadia votes.js "Sentinel" and TipBot's DiscadiaVote cog). Members vote
// once a day.
// Left open: retries (none documented), a test delivery (none documented), the vote's time (arrival
// is used) and its end (the listing's setting, default 24 hours).
import { verifyShared } from './delivery.js';
import { readPlainVote } from './read-body.js';
import { HOUR_MS, SINGLE_WEIGHT, type ListSite } from './site.js';

const VOTE_LENGTH_MS = 24 * HOUR_MS;
/** Discadia's repeats of one vote fall within this (ms). */
export const DISCADIA_DEDUPE_WINDOW_MS = HOUR_MS;

export const discadia: ListSite<'discadia'> = {
  id: 'discadia',
  name: 'Discadia',
  secretFrom: 'bot',
  secretHint: 'the last part of the vote webhook address you set on Discadia',
  auth: 'url-path',
  voteLength: VOTE_LENGTH_MS,
  dedupeWindowMs: DISCADIA_DEDUPE_WINDOW_MS,
  // The body has no weight (discadia.com/help/vote-webhooks): every vote counts once.
  weights: SINGLE_WEIGHT,
  replyApi: false,
  sendsTests: false,
  verify: (delivery, secret) => verifyShared(delivery.pathSecret, secret),
  read: readPlainVote('discadia', { guild: 'guild_id', member: 'user_id' }, VOTE_LENGTH_MS),
};
