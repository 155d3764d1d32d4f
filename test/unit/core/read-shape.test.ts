import { describe, expect, it } from '@jest/globals';
import { arrayOf, count, Fields, nullish, number, optional, type Read } from '../../../src/core/read-shape.js';
import {
  describeIssues,
  isNoReview,
  readErrorBody,
  readReplyBody,
  readReviewBody,
  readVoteList,
  readVoteStatus,
} from '../../../src/api/schemas.js';

/** The issues of a read that must fail, as `describeIssues` prints them. */
function why<T>(read: Read<T>): string {
  if (read.ok) throw new Error(`expected the read to fail, got ${JSON.stringify(read.value)}`);
  return describeIssues(read.issues);
}

const REVIEW = {
  id: 'rev_1',
  rating: 4,
  content: 'Good server',
  likes: 2,
  replies: 0,
  created_at: '2024-05-01T12:00:00.000Z',
  authorId: '284102390141648897',
};

describe('readVoteStatus', () => {
  it.each([
    ['voted null reads as not voted', { voted: null, remaining: 5 }, { voted: false, remainingMs: 5 }],
    ['a negative remaining (clock skew) reads as 0', { voted: true, remaining: -250 }, { voted: true, remainingMs: 0 }],
    ['a fractional remaining is rounded', { voted: true, remaining: 1499.5 }, { voted: true, remainingMs: 1500 }],
    ['remaining absent reads as null', { voted: true }, { voted: true, remainingMs: null }],
  ])('%s', (_, body, expected) => {
    expect(readVoteStatus(body)).toEqual({ ok: true, value: expected });
  });

  it('keeps only the fields it names', () => {
    const read = readVoteStatus({ voted: true, remaining: 1, extra: { a: 1 } });
    expect(read.ok && Object.keys(read.value)).toEqual(['voted', 'remainingMs']);
  });

  it('names every wrong field, and a body that is no object', () => {
    expect(why(readVoteStatus({ voted: 'yes', remaining: '1' }))).toBe(
      'voted: expected a boolean; remaining: expected a number',
    );
    for (const body of [null, undefined, [], 'text', 3])
      expect(why(readVoteStatus(body))).toBe('body: expected an object');
  });
});

describe('readVoteList', () => {
  const list = (fields: object) => ({ totalVotes: 3, monthlyVotes: 1, votes: [], ...fields });

  it('reads entries: discord absent or null is not via Discord, remaining clamped and rounded', () => {
    expect(
      readVoteList(
        list({
          votes: [
            { userId: 'a', remaining: -1, discord: null },
            { userId: 'b', remaining: 2.4, discord: true, extra: 1 },
            { userId: 'c' },
          ],
        }),
      ),
    ).toEqual({
      ok: true,
      value: {
        totalVotes: 3,
        monthlyVotes: 1,
        votes: [
          { userId: 'a', remainingMs: 0, viaDiscord: false },
          { userId: 'b', remainingMs: 2, viaDiscord: true },
          { userId: 'c', remainingMs: null, viaDiscord: false },
        ],
      },
    });
  });

  it.each([
    ['a negative count', { totalVotes: -1 }, 'totalVotes: expected a whole number ≥ 0'],
    ['a fractional count', { monthlyVotes: 1.5 }, 'monthlyVotes: expected a whole number ≥ 0'],
    ['a count as a string', { totalVotes: '3' }, 'totalVotes: expected a whole number ≥ 0'],
    ['votes that are not an array', { votes: {} }, 'votes: expected an array'],
    [
      'an entry with an empty userId',
      { votes: [{ userId: 'a' }, { userId: '' }] },
      'votes.1.userId: expected a non-empty string',
    ],
    ['an entry that is no object', { votes: [null] }, 'votes.0: expected an object'],
    [
      'an entry with discord as a string',
      { votes: [{ userId: 'a', discord: 'yes' }] },
      'votes.0.discord: expected a boolean',
    ],
  ])('refuses %s, naming the path', (_, fields, message) => {
    expect(why(readVoteList(list(fields)))).toBe(message);
  });
});

describe('readReviewBody', () => {
  it('reads a review, created_at as a Date, ignoring extra fields', () => {
    expect(readReviewBody({ ...REVIEW, extra: true })).toEqual({
      ok: true,
      value: {
        id: 'rev_1',
        rating: 4,
        content: 'Good server',
        likes: 2,
        replies: 0,
        createdAt: new Date('2024-05-01T12:00:00.000Z'),
        authorId: '284102390141648897',
      },
    });
  });

  it('accepts content longer than the spec’s 200 characters and ratings 1 and 5', () => {
    expect(readReviewBody({ ...REVIEW, content: 'x'.repeat(500) }).ok).toBe(true);
    expect(readReviewBody({ ...REVIEW, rating: 1 }).ok).toBe(true);
    expect(readReviewBody({ ...REVIEW, rating: 5 }).ok).toBe(true);
  });

  it.each([
    ['a rating of 0', { rating: 0 }, 'rating: expected a whole number from 1 to 5'],
    ['a rating of 4.5', { rating: 4.5 }, 'rating: expected a whole number from 1 to 5'],
    ['a created_at that does not parse', { created_at: 'last tuesday' }, 'created_at: expected an ISO 8601 date-time'],
    ['a created_at that is no string', { created_at: 1714564800000 }, 'created_at: expected an ISO 8601 date-time'],
    ['negative likes', { likes: -1 }, 'likes: expected a whole number ≥ 0'],
    ['content null', { content: null }, 'content: expected a string'],
    ['an empty authorId', { authorId: '' }, 'authorId: expected a non-empty string'],
  ])('refuses %s', (_, fields, message) => {
    expect(why(readReviewBody({ ...REVIEW, ...fields }))).toBe(message);
  });
});

describe('isNoReview', () => {
  it.each([
    ['an empty body', undefined],
    ['null', null],
    ['{}', {}],
    ['an {error} body', { error: 'Unknown User' }],
    ['an {error} body with more fields', { error: 'Unknown User', status: 404 }],
  ])('is true for %s', (_, body) => {
    expect(isNoReview(body)).toBe(true);
  });

  it.each([
    ['an object with any other key', { a: 1 }],
    ['an error that is no string', { error: 5 }],
    ['an array', []],
    ['a string', ''],
    ['a number', 0],
    ['a review', REVIEW],
  ])('is false for %s', (_, body) => {
    expect(isNoReview(body)).toBe(false);
  });
});

describe('readReplyBody and readErrorBody', () => {
  it('reads a reply id, ignoring other fields, and refuses an empty one', () => {
    expect(readReplyBody({ id: 'reply_1', extra: true })).toEqual({ ok: true, value: { id: 'reply_1' } });
    expect(why(readReplyBody({ id: '' }))).toBe('id: expected a non-empty string');
    expect(why(readReplyBody({ ok: true }))).toBe('id: expected a non-empty string');
  });

  it('reads an {error} body, ignoring other fields', () => {
    expect(readErrorBody({ error: 'Unknown Review', status: 404 })).toEqual({
      ok: true,
      value: { error: 'Unknown Review' },
    });
    expect(readErrorBody({ error: 404 }).ok).toBe(false);
    expect(readErrorBody('Unknown Review').ok).toBe(false);
  });
});

describe('describeIssues', () => {
  it('prints at most three issues as path: message, `body` for the whole value', () => {
    expect(
      describeIssues([
        { path: [], message: 'one' },
        { path: ['votes', 0, 'userId'], message: 'two' },
        { path: ['a'], message: 'three' },
        { path: ['b'], message: 'four' },
      ]),
    ).toBe('body: one; votes.0.userId: two; a: three');
  });
});

describe('primitives', () => {
  it('count takes whole numbers ≥ 0 a double holds exactly', () => {
    expect(count(0)).toBe(0);
    expect(count(2 ** 53 - 1)).toBe(2 ** 53 - 1);
    for (const wrong of [-1, 0.5, 2 ** 53, Number.NaN, Infinity, '1', null]) expect(count(wrong)).not.toBe(wrong);
  });

  it('number refuses what is not finite', () => {
    for (const wrong of [Number.NaN, Infinity, -Infinity, '1']) expect(number(wrong)).not.toBe(wrong);
  });

  it('optional passes undefined only; nullish passes null too', () => {
    expect(optional(number)(undefined)).toBeUndefined();
    expect(optional(number)(null)).not.toBeNull();
    expect(nullish(number)(null)).toBeNull();
    expect(nullish(number)(undefined)).toBeUndefined();
  });

  it('Fields collects every issue in reading order and builds nothing once one is found', () => {
    const at = new Fields({ a: 'x', b: [1, 'two', 3, 'four'] });
    at.field('a', number);
    at.nested(
      'b',
      arrayOf((value) =>
        typeof value === 'number' ? { ok: true, value } : { ok: false, issues: [{ path: [], message: 'nope' }] },
      ),
    );
    let built = false;
    const read = at.done(() => (built = true));
    expect(built).toBe(false);
    expect(why(read)).toBe('a: expected a number; b.1: nope; b.3: nope');
  });

  it('Fields.fields reads several fields in the order named, each wrong one an issue', () => {
    const at = new Fields({ a: 1, b: 'x', c: -1 });
    const read = at.fields({ a: number, b: number, c: count, d: optional(number) });
    expect(read).toEqual({ a: 1, b: undefined, c: undefined, d: undefined });
    expect(why(at.done(() => read))).toBe('b: expected a number; c: expected a whole number ≥ 0');
    expect(new Fields({ a: 2 }).fields({ a: count })).toEqual({ a: 2 });
  });
});
