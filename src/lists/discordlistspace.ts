// discordlist.space: the server's Dashboard → Webhooks; the admin picks triggers and types a token
// (the bot makes it), sent as the Authorization header of every request. Triggers for servers:
// `upvote` and `review`. Source: docs.discordlist.space/reference/webhooks. The body's envelope
// (`trigger`, `user.{id, username}`, `server.{id}`) is as an open-source bot that takes these
// deliveries reads it (TipBot's DiscordListVote cog): the copy of the page consulted shows no body.
// Left open: the review's fields (read under the likely names: `review.{id, content, rating}`, then
// the same at the top level; a review without an id is the member's one review of the server), the
// vote's time (arrival is used), its end (the listing's setting, default 24 hours), retries and a test
// delivery (none documented).
import {
  count,
  isObject,
  nullish,
  number,
  objectReader,
  ok,
  optional,
  string,
  Wrong,
  type Field,
  type Reader,
} from '../core/read-shape.js';
import { header, verifyShared } from './delivery.js';
import { readWith, snowflake, untilFrom } from './read-body.js';
import { HOUR_MS, SINGLE_WEIGHT, type ListEvent, type ListSite, type ReadContext } from './site.js';

const VOTE_LENGTH_MS = 24 * HOUR_MS;
/** The server's page, where its reviews are read: the site has no address per review. */
const serverPage = (guildId: string) => `https://discordlist.space/server/${guildId}`;

const NOT_A_TRIGGER = new Wrong('expected "upvote" or "review"');
const trigger: Field<'upvote' | 'review'> = (value) =>
  value === 'upvote' || value === 'review' ? value : NOT_A_TRIGGER;
const NOT_AN_ID = new Wrong('expected a string or a whole number');
const idText: Field<string | undefined> = (value) =>
  value === undefined || typeof value === 'string'
    ? value
    : typeof value === 'number' && Number.isSafeInteger(value)
      ? String(value)
      : NOT_AN_ID;

const readUser = objectReader((at) => {
  const id = at.field('id', snowflake);
  const username = at.field('username', nullish(string));
  return at.done(() => ({ id, username: username ?? undefined }));
});

const readServer = objectReader((at) => {
  const id = at.field('id', snowflake);
  return at.done(() => id);
});

const reviewFields = objectReader((at) => {
  const id = at.field('id', idText);
  const content = at.field('content', optional(string));
  const rating = at.field('rating', optional(number)) ?? at.field('stars', optional(count));
  return at.done(() => ({ id, content, rating }));
});

function reader(context: ReadContext): Reader<ListEvent<'discordlistspace'>> {
  return objectReader((at) => {
    const kind = at.field('trigger', trigger);
    const user = at.nested('user', readUser);
    const guildId = at.nested('server', readServer);
    // A review's fields under `review`, or beside `trigger` when there is no `review` object.
    const review = at.nested('review', (value) =>
      kind === 'review' ? reviewFields(isObject(value) ? value : at.source) : ok(undefined),
    );
    return at.done(() => {
      const read: ListEvent<'discordlistspace'> = {
        site: 'discordlistspace',
        kind: kind === 'review' ? 'review' : 'vote',
        guildId,
        memberId: user.id,
        at: context.now,
        until: kind === 'review' ? context.now : untilFrom(context.now, context, VOTE_LENGTH_MS),
        weight: 1,
      };
      if (user.username !== undefined) read.memberName = user.username;
      if (review) {
        read.review = {
          id: review.id ?? `member-${user.id}`,
          content: review.content ?? '',
          url: serverPage(guildId),
        };
        if (review.rating !== undefined) read.review.rating = review.rating;
      }
      return read;
    });
  });
}

export const discordlistspace: ListSite<'discordlistspace'> = {
  id: 'discordlistspace',
  name: 'discordlist.space',
  secretFrom: 'bot',
  secretHint: 'the Authorization token you typed in the discordlist.space dashboard',
  auth: 'authorization-equals',
  voteLength: VOTE_LENGTH_MS,
  dedupeWindowMs: HOUR_MS,
  // The body has no weight (docs.discordlist.space/reference/webhooks): every vote counts once.
  weights: SINGLE_WEIGHT,
  replyApi: false,
  sendsTests: false,
  reviewPage: serverPage,
  verify: (delivery, secret) => verifyShared(header(delivery, 'authorization'), secret),
  read: (rawBody, context) => readWith(rawBody, reader(context)),
};
