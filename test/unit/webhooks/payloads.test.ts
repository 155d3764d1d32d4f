import { describe, expect, it } from '@jest/globals';
import { readEvent } from '../../../src/api/webhook-payloads.js';

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

describe('readEvent tolerances', () => {
  const review = (fields: object) => ({
    event: 'review',
    guildId: GUILD,
    id: 'rev_1',
    authorId: MEMBER,
    rating: 4,
    ...fields,
  });

  it('reads a double vote and keeps null names, leaving out fields the delivery leaves out', () => {
    const read = readEvent({ event: 'vote', guildId: GUILD, double: true, user: { id: MEMBER, global_name: null } });
    expect(read).toEqual({
      ok: true,
      event: { event: 'vote', guildId: GUILD, double: true, user: { id: MEMBER, global_name: null } },
    });
    expect(read.ok && Object.keys(read.event.event === 'vote' ? read.event.user : {})).toEqual(['id', 'global_name']);
  });

  it.each([
    ['double null', { event: 'vote', guildId: GUILD, double: null, user: { id: MEMBER } }, /^vote event: double /],
    ['a 16-digit user id', { event: 'vote', guildId: GUILD, user: { id: '1'.repeat(16) } }, /^vote event: user\.id /],
    ['a 21-digit user id', { event: 'vote', guildId: GUILD, user: { id: '1'.repeat(21) } }, /^vote event: user\.id /],
    ['no user', { event: 'vote', guildId: GUILD }, /^vote event: user expected an object$/],
    ['no guildId', { event: 'vote', user: { id: MEMBER } }, /^vote event: guildId /],
    ['an empty review id', review({ id: '' }), /^review event: id /],
    ['an 81-character review id', review({ id: 'r'.repeat(81) }), /^review event: id /],
    ['an author that is no snowflake', review({ authorId: 'alice' }), /^review event: authorId /],
    ['a rating below 0', review({ rating: -0.5 }), /^review event: rating /],
    ['a rating as a string', review({ rating: '4' }), /^review event: rating /],
    ['content null', review({ content: null }), /^review event: content /],
    ['a reply whose review is null', { event: 'reply', guildId: GUILD, review: null }, /^reply event: review /],
    ['a reply whose authorId is a number', { event: 'reply', guildId: GUILD, authorId: 5 }, /^reply event: authorId /],
    ['a body that is no object', [], /^null event: body /],
  ])('refuses %s, naming the field', (_, body, problem) => {
    const read = readEvent(body);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.problem).toMatch(problem);
    expect(!read.ok && read.unknownKind).toBe(false);
  });

  it('accepts review ids of 1 and 80 characters and ratings 0, 5 and in between', () => {
    for (const fields of [{ id: 'r' }, { id: 'r'.repeat(80) }, { rating: 0 }, { rating: 5 }, { rating: 3.5 }])
      expect(readEvent(review(fields)).ok).toBe(true);
  });

  it('takes reviewId before review_id before review.id, and a reply without authorId has a null one', () => {
    expect(
      readEvent({ event: 'reply', guildId: GUILD, reviewId: 'a', review_id: 'b', review: { id: 'c' }, id: 'r' }),
    ).toEqual({ ok: true, event: { event: 'reply', guildId: GUILD, authorId: null, reviewId: 'a', replyId: 'r' } });
    expect(readEvent({ event: 'reply', guildId: GUILD, review_id: 'b', review: { id: 'c' } })).toEqual({
      ok: true,
      event: { event: 'reply', guildId: GUILD, authorId: null, reviewId: 'b', replyId: undefined },
    });
    expect(readEvent({ event: 'reply', guildId: GUILD, review: {} })).toEqual({
      ok: true,
      event: { event: 'reply', guildId: GUILD, authorId: null, reviewId: undefined, replyId: undefined },
    });
  });

  it('names a kind it does not know, whatever its type', () => {
    expect(readEvent({ event: 5, guildId: GUILD })).toEqual({
      ok: false,
      problem: 'unknown event type 5',
      unknownKind: true,
    });
    expect(readEvent({ event: 'Vote', guildId: GUILD })).toMatchObject({ unknownKind: true });
  });
});
