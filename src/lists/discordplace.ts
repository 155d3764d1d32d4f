// discord.place: the server's management page has Webhook options, a URL and a token the admin
// types (the bot makes it). Each delivery: POST, `Content-Type: application/json`,
// `Authorization: <token>`, body `{guild, user, test}` (test true only from the dashboard's test).
// Any answer outside 200–299 is retried 3 times, 5 s apart.
// Source: docs.discord.place/webhooks (github.com/discordplace/discord.place docs/app/webhooks/page.mdx,
// which predates the `test` field, so a body without it is read as a vote). Votes run 24 hours: the
// site's vote timeout expires after 86400 s (same repository, server/src/schemas/Server/Vote/Timeout.js).
// Left open: the vote's time (the delivery's arrival is used) and its end (the listing's setting).
import { header, verifyShared } from './delivery.js';
import { readPlainVote } from './read-body.js';
import { HOUR_MS, SINGLE_WEIGHT, type ListSite } from './site.js';

const VOTE_LENGTH_MS = 24 * HOUR_MS;

export const discordplace: ListSite<'discordplace'> = {
  id: 'discordplace',
  name: 'discord.place',
  secretFrom: 'bot',
  secretHint: 'the token you typed in Webhook options on discord.place',
  auth: 'authorization-equals',
  voteLength: VOTE_LENGTH_MS,
  dedupeWindowMs: HOUR_MS,
  // The body has no weight (docs.discord.place/webhooks): every vote counts once.
  weights: SINGLE_WEIGHT,
  replyApi: false,
  sendsTests: true,
  verify: (delivery, secret) => verifyShared(header(delivery, 'authorization'), secret),
  read: readPlainVote('discordplace', { guild: 'guild', member: 'user', test: 'test' }, VOTE_LENGTH_MS),
};
