// Discollab: the dashboard → the server → Additional Info, at the bottom an endpoint URL and its
// token (the bot makes it); each delivery carries `Authorization: Bearer <token>`. Body for servers:
// `{guild_id, user_id, username, voted_on (deprecated), voted_on_iso, vote_again, times_voted,
// is_test}`; is_test is true only from the dashboard's Send Test Webhook.
// Source: docs.discollab.org/resources/webhooks (github.com/Discollab/docs resources/webhooks.md).
// Left open: whether `vote_again` ("in seconds, when the user can vote again") is a span or a Unix
// time: a value above 10^9 is read as a Unix time (no span is 31 years), any other as seconds after
// the vote; absent, the listing's setting (default 24 hours). Retries: none documented.
import { boolean, count, nullish, objectReader, optional, string } from '../core/read-shape.js';
import { header, verifyShared } from './delivery.js';
import { isoTime, readWith, snowflake, untilFrom } from './read-body.js';
import { HOUR_MS, SINGLE_WEIGHT, type ListSite, type ReadContext } from './site.js';

const VOTE_LENGTH_MS = 24 * HOUR_MS;
const UNIX_TIME_ABOVE = 1e9;

// Discollab's docs said "the token" before they said "Bearer <token>" (September 2025): both are taken.
const bearerToken = (value: string | undefined) => (value?.startsWith('Bearer ') ? value.slice(7) : value);

function until(at: number, voteAgain: number | undefined, context: ReadContext): number {
  if (voteAgain === undefined) return untilFrom(at, context, VOTE_LENGTH_MS);
  return voteAgain > UNIX_TIME_ABOVE ? voteAgain * 1000 : at + voteAgain * 1000;
}

export const discollab: ListSite<'discollab'> = {
  id: 'discollab',
  name: 'Discollab',
  secretFrom: 'bot',
  secretHint: 'the token of the endpoint you set in the Discollab dashboard',
  auth: 'authorization-bearer',
  voteLength: 'payload',
  dedupeWindowMs: HOUR_MS,
  // The body has no weight (docs.discollab.org/resources/webhooks): every vote counts once.
  weights: SINGLE_WEIGHT,
  replyApi: false,
  sendsTests: true,
  verify: (delivery, secret) => verifyShared(bearerToken(header(delivery, 'authorization')), secret),
  read: (rawBody, context) =>
    readWith(
      rawBody,
      objectReader((at) => {
        const guildId = at.field('guild_id', snowflake);
        const memberId = at.field('user_id', snowflake);
        const name = at.field('username', nullish(string));
        const votedAt = at.field('voted_on_iso', optional(isoTime));
        const voteAgain = at.field('vote_again', optional(count));
        const test = at.field('is_test', optional(boolean)) === true;
        return at.done(() => {
          const when = votedAt ?? context.now;
          return {
            site: 'discollab',
            kind: test ? 'test' : 'vote',
            guildId,
            memberId,
            ...(name ? { memberName: name } : {}),
            at: when,
            until: test ? when : until(when, voteAgain, context),
            weight: 1,
          };
        });
      }),
    ),
};
