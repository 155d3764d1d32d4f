import { describe, expect, it } from '@jest/globals';
import { ButtonStyle } from 'discord-api-types/v10';
import type { Review } from '../../../src/api/types.js';
import { CUSTOM_ID_MAX } from '../../../src/core/discord-limits.js';
import { reviewView } from '../../../src/views/review.js';
import { MEMBER, buttonsOf, customIdOf, embedOf, embedText } from './view-json.js';
import { english } from '../../../src/i18n/index.js';
import { parseReviewId } from '../../../src/api/index.js';

const WRITTEN = new Date('2025-02-20T08:30:00Z');
const WRITTEN_UNIX = 1_740_040_200;

function review(overrides: Partial<Review> = {}): Review {
  return {
    id: 'rev_8f3a2c',
    rating: 4,
    content: 'Friendly people and fast support.',
    likes: 1234,
    replies: 2,
    createdAt: WRITTEN,
    authorId: MEMBER,
    ...overrides,
  };
}

describe('reviewView for a review', () => {
  const view = reviewView({ i18n: english, authorId: MEMBER, review: review(), showReplyButton: false });
  const embed = embedOf(view);

  it('shows the rating as stars, and the author as a mention', () => {
    expect(embed.description).toContain(`**★★★★☆ 4/5** · by <@${MEMBER}>`);
  });

  it('shows the review text', () => {
    expect(embed.description).toContain('Friendly people and fast support.');
  });

  it('shows likes and replies as counts', () => {
    expect(embed.fields).toContainEqual({ name: 'Likes', value: '1,234', inline: true });
    expect(embed.fields).toContainEqual({ name: 'Replies', value: '2', inline: true });
  });

  it('shows when it was written, relative and exact', () => {
    expect(embed.fields).toContainEqual({
      name: 'Written',
      value: `<t:${WRITTEN_UNIX}:R>\n<t:${WRITTEN_UNIX}:f>`,
      inline: true,
    });
  });

  it('puts the review id in the footer', () => {
    expect(embed.footer?.text).toBe('Review ID: rev_8f3a2c');
  });

  it('pings nobody', () => {
    expect(view.allowedMentions).toEqual({ parse: [] });
  });
});

describe('reviewView escaping', () => {
  const hostile = [
    '**bold**',
    '@everyone look',
    'ping <@123456789012345678>',
    '```',
    'code that would eat the embed',
    '```',
  ].join('\n');
  const view = reviewView({
    i18n: english,
    authorId: MEMBER,
    review: review({ content: hostile }),
    showReplyButton: false,
  });
  const description = embedOf(view).description ?? '';

  it('escapes bold so it shows as typed', () => {
    expect(description).toContain('\\*\\*bold\\*\\*');
  });

  it('breaks @everyone so it does not look like a ping', () => {
    expect(description).toContain('@\u200beveryone look');
    expect(description).not.toMatch(/@everyone/);
  });

  it('breaks a user mention written in the text, while the author line still mentions the author', () => {
    expect(description).toContain('ping <\u200b@123456789012345678>');
    expect(description.match(/<@123456789012345678>/g)).toHaveLength(1);
  });

  it('escapes a backtick block', () => {
    expect(description).toContain('\\`\\`\\`\ncode that would eat the embed\n\\`\\`\\`');
    expect(description).not.toMatch(/(^|[^\\])```/);
  });

  it('allows no mentions at all', () => {
    expect(view.allowedMentions).toEqual({ parse: [] });
  });

  it('keeps a very long review within Discord’s description limit', () => {
    const long = reviewView({
      i18n: english,
      authorId: MEMBER,
      review: review({ content: '*'.repeat(5000) }),
      showReplyButton: false,
    });
    const text = embedOf(long).description ?? '';
    expect(text.length).toBeLessThanOrEqual(4096);
    expect(text.endsWith('…')).toBe(true);
  });

  it('says a rating-only review has no text', () => {
    const empty = reviewView({
      i18n: english,
      authorId: MEMBER,
      review: review({ content: '  ' }),
      showReplyButton: false,
    });
    expect(embedOf(empty).description).toContain('*No text, rating only.*');
  });
});

describe('reviewView without a review', () => {
  const view = reviewView({ i18n: english, authorId: MEMBER, review: null, showReplyButton: true });

  it('says the member has not written a review yet', () => {
    expect(embedOf(view).description).toBe(`<@${MEMBER}> has not written a review yet.`);
  });

  it('offers no Reply button even to a moderator', () => {
    expect(view.components).toHaveLength(0);
  });
});

describe('reviewView Reply button', () => {
  it('is offered when asked for, with custom id review-reply:<reviewId>', () => {
    const buttons = buttonsOf(reviewView({ i18n: english, authorId: MEMBER, review: review(), showReplyButton: true }));
    expect(buttons).toEqual([
      { type: 2, style: ButtonStyle.Primary, label: 'Reply', custom_id: 'review-reply:rev_8f3a2c' },
    ]);
  });

  it('is absent when not asked for', () => {
    expect(
      reviewView({ i18n: english, authorId: MEMBER, review: review(), showReplyButton: false }).components,
    ).toHaveLength(0);
  });

  it('fits 100 characters with the longest review id', () => {
    const id = 'r'.repeat(80);
    const [button] = buttonsOf(
      reviewView({ i18n: english, authorId: MEMBER, review: review({ id }), showReplyButton: true }),
    );
    expect(customIdOf(button)).toBe(`review-reply:${id}`);
    expect(customIdOf(button)!.length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
  });

  it('is left out for a review id the reply handler would refuse', () => {
    const view = reviewView({
      i18n: english,
      authorId: MEMBER,
      review: review({ id: 'has space' }),
      showReplyButton: true,
    });
    expect(view.components).toHaveLength(0);
    expect(embedText(embedOf(view))).toContain('has space');
  });
});

describe('parseReviewId', () => {
  it('accepts ids of 1 to 80 non-space characters', () => {
    expect(parseReviewId('rev_8f3a2c')).toBe('rev_8f3a2c');
    expect(parseReviewId('x')).toBe('x');
    expect(parseReviewId('a'.repeat(80))).toBe('a'.repeat(80));
  });

  it.each([
    ['empty', ''],
    ['81 characters', 'a'.repeat(81)],
    ['a space', 'a b'],
    ['a tab', 'a\tb'],
    ['a newline', 'a\nb'],
    ['a no-break space', 'a\u00a0b'],
    ['a NUL', 'a\u0000b'],
    ['a DEL', 'a\u007fb'],
    ['a zero-width space', 'a\u200bb'],
    ['a right-to-left override', 'a\u202eb'],
    ['only a dot', '.'],
    ['only two dots', '..'],
  ])('rejects an id with %s', (_, arg) => {
    expect(parseReviewId(arg)).toBeNull();
  });
});
