import { describe, expect, it } from '@jest/globals';
import { readEvent } from '../../../src/webhooks/payloads.js';

const GUILD = '900000000000000009';
const MEMBER = '284102390141648897';

describe('readEvent', () => {
  it('reads a vote, counting it single unless it says double, and drops fields it does not know', () => {
    expect(
      readEvent({ event: 'vote', guildId: GUILD, user: { id: MEMBER, discord: true, username: 'alice', extra: 1 } }),
    ).toEqual({
      ok: true,
      event: { event: 'vote', guildId: GUILD, double: false, user: { id: MEMBER, discord: true, username: 'alice' } },
    });
  });

  it('reads a review with empty content when the delivery has none', () => {
    expect(readEvent({ event: 'review', guildId: GUILD, id: 'rev_1', authorId: MEMBER, rating: 4 })).toEqual({
      ok: true,
      event: { event: 'review', guildId: GUILD, id: 'rev_1', authorId: MEMBER, content: '', rating: 4 },
    });
  });

  it.each([
    ['reviewId', { reviewId: 'rev_2' }],
    ['review_id', { review_id: 'rev_2' }],
    ['review.id', { review: { id: 'rev_2' } }],
  ])("finds a reply's review under %s and keeps the reply's id", (_name, names) => {
    expect(readEvent({ event: 'reply', guildId: GUILD, authorId: null, id: 'reply_7', ...names })).toEqual({
      ok: true,
      event: { event: 'reply', guildId: GUILD, authorId: null, reviewId: 'rev_2', replyId: 'reply_7' },
    });
  });

  it("reads a reply that names no review, without taking its id for the reply's", () => {
    expect(readEvent({ event: 'reply', guildId: GUILD, id: 'rev_or_reply' })).toEqual({
      ok: true,
      event: { event: 'reply', guildId: GUILD, authorId: null, reviewId: undefined, replyId: undefined },
    });
  });

  it('names an unknown event type, or a missing one, as the problem', () => {
    expect(readEvent({ event: 'boost', guildId: GUILD })).toEqual({
      ok: false,
      problem: 'unknown event type "boost"',
      unknownKind: true,
    });
    expect(readEvent({ guildId: GUILD })).toEqual({ ok: false, problem: 'unknown event type null', unknownKind: true });
  });

  it('names the event and the field that is wrong', () => {
    const read = readEvent({ event: 'vote', guildId: GUILD, user: { id: 'not-a-snowflake' } });
    expect(read.ok).toBe(false);
    expect(!read.ok && read.problem).toMatch(/^vote event: user\.id /);
    expect(!read.ok && read.unknownKind).toBe(false);
    const review = readEvent({ event: 'review', guildId: GUILD, id: 'rev_1', authorId: MEMBER, rating: 9 });
    expect(!review.ok && review.problem).toMatch(/^review event: rating /);
  });
});
