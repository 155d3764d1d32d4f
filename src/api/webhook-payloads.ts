import {
  boolean,
  failed,
  isObject,
  nullish,
  number,
  objectReader,
  ok,
  optional,
  string,
  Wrong,
  type Field,
  type Read,
  type Reader,
} from '../core/read-shape.js';
import { isSnowflake } from './validate-input.js';

export interface VoteEvent {
  event: 'vote';
  guildId: string;
  /** False when the delivery does not say. */
  double: boolean;
  user: VoteEventUser;
}
/** A field the delivery leaves out is left out here too. */
interface VoteEventUser {
  id: string;
  discord?: boolean;
  global_name?: string | null;
  username?: string | null;
}
export interface ReviewEvent {
  event: 'review';
  guildId: string;
  id: string;
  authorId: string;
  /** Empty when the delivery has none. */
  content: string;
  rating: number;
}
interface ReplyEvent {
  event: 'reply';
  guildId: string;
  authorId: string | null;
  /** Which review was answered, when the delivery says. */
  reviewId: string | undefined;
  replyId: string | undefined;
}
export type GuildsEvent = VoteEvent | ReviewEvent | ReplyEvent;

const NOT_A_SNOWFLAKE = new Wrong('expected a snowflake (17 to 20 digits)');
const snowflake: Field<string> = (value) => (isSnowflake(value) ? value : NOT_A_SNOWFLAKE);

const NOT_A_REVIEW_ID = new Wrong('expected a string of 1 to 80 characters');
const reviewId: Field<string> = (value) =>
  typeof value === 'string' && value.length >= 1 && value.length <= 80 ? value : NOT_A_REVIEW_ID;

const NOT_A_RATING = new Wrong('expected a number from 0 to 5');
const rating: Field<number> = (value) => {
  const read = number(value);
  return read instanceof Wrong || read < 0 || read > 5 ? NOT_A_RATING : read;
};

const optionalBoolean = optional(boolean);
const optionalString = optional(string);
const nullishString = nullish(string);

// Guilds documents these fields (docs.guilds.me v1); anything else it sends is ignored.
const readVoteUser: Reader<VoteEventUser> = objectReader((at) => {
  const id = at.field('id', snowflake);
  const discord = at.field('discord', optionalBoolean);
  const globalName = at.field('global_name', nullishString);
  const username = at.field('username', nullishString);
  return at.done(() => {
    const user: VoteEventUser = { id };
    if (discord !== undefined) user.discord = discord;
    if (globalName !== undefined) user.global_name = globalName;
    if (username !== undefined) user.username = username;
    return user;
  });
});

const readVote: Reader<VoteEvent> = objectReader((at) => {
  const guildId = at.field('guildId', string);
  const double = at.field('double', optionalBoolean);
  const user = at.nested('user', readVoteUser);
  return at.done(() => ({ event: 'vote', guildId, double: double ?? false, user }));
});

const readReview: Reader<ReviewEvent> = objectReader((at) => {
  const guildId = at.field('guildId', string);
  const id = at.field('id', reviewId);
  const authorId = at.field('authorId', snowflake);
  const content = at.field('content', optionalString);
  const stars = at.field('rating', rating);
  return at.done(() => ({ event: 'review', guildId, id, authorId, content: content ?? '', rating: stars }));
});

const reviewRef = objectReader((at) => {
  const id = at.field('id', optionalString);
  return at.done(() => ({ id }));
});

/** A reply's `review`: absent, or an object whose `id`, when given, is a string. */
const readReviewRef: Reader<{ id?: string } | undefined> = (value) =>
  value === undefined ? ok(undefined) : reviewRef(value);

// A reply's other fields are undocumented: the review id is looked for under the likely names, and
// the reply's own id is trusted only when the review is known.
const readReply: Reader<ReplyEvent> = objectReader((at) => {
  const {
    guildId,
    authorId,
    reviewId: camel,
    review_id: snake,
  } = at.fields({
    guildId: string,
    authorId: nullishString,
    reviewId: optionalString,
    review_id: optionalString,
  });
  const review = at.nested('review', readReviewRef);
  const id = at.field('id', optionalString);
  return at.done(() => {
    const reviewId = camel ?? snake ?? review?.id;
    return {
      event: 'reply',
      guildId,
      authorId: authorId ?? null,
      reviewId,
      replyId: reviewId === undefined ? undefined : id,
    };
  });
});

const readers: Record<GuildsEvent['event'], Reader<GuildsEvent>> = {
  vote: readVote,
  review: readReview,
  reply: readReply,
};

/** `unknownKind`: the body names no event the bot acts on (as opposed to a known kind with a bad field). */
export type ReadEvent = { ok: true; event: GuildsEvent } | { ok: false; problem: string; unknownKind: boolean };

/** A delivery's body as an event the bot acts on, or why not. */
export function readEvent(body: unknown): ReadEvent {
  const kind = (body as { event?: unknown } | null)?.event ?? null;
  let read: Read<GuildsEvent>;
  if (!isObject(body)) read = failed('expected an object');
  else if (kind === 'vote' || kind === 'review' || kind === 'reply') read = readers[kind](body);
  // The body names no event the bot knows: a kind Guilds added, or no kind at all.
  else return { ok: false, problem: `unknown event type ${JSON.stringify(kind)}`, unknownKind: true };
  if (read.ok) return { ok: true, event: read.value };
  const issue = read.issues[0];
  return {
    ok: false,
    problem: `${String(kind)} event: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`,
    unknownKind: false,
  };
}
