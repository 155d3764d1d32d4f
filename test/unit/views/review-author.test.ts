import { describe, expect, it } from '@jest/globals';
import type { Review } from '../../../src/api/types.js';
import { reviewAuthorFromEmbeds } from '../../../src/views/review-author.js';
import { reviewView } from '../../../src/views/review.js';
import { MEMBER, NOW, embedOf } from './view-json.js';
import { english } from '../../../src/i18n/index.js';

function review(content: string): Review {
  return { id: 'rev_1', rating: 3, content, likes: 0, replies: 0, createdAt: NOW, authorId: MEMBER };
}

describe('reviewAuthorFromEmbeds', () => {
  it('reads the author back from a review message the bot sent', () => {
    const embed = embedOf(
      reviewView({ i18n: english, authorId: MEMBER, review: review('Nice.'), showReplyButton: true }),
    );
    expect(reviewAuthorFromEmbeds([embed])).toBe(MEMBER);
  });

  it('reads the author back when their display name stands beside the mention', () => {
    const view = reviewView({
      i18n: english,
      authorId: MEMBER,
      review: review('Nice.'),
      showReplyButton: true,
      authorName: 'Ada (the *first*)',
    });
    const embed = embedOf(view);
    expect(embed.description).toMatch(
      new RegExp(`^\\*\\*.* · by <@${MEMBER}> \\(Ada \\(the \\\\\\*first\\\\\\*\\)\\)\\n`),
    );
    expect(reviewAuthorFromEmbeds([embed])).toBe(MEMBER);
  });

  it('returns null for the no-review message', () => {
    const embed = embedOf(reviewView({ i18n: english, authorId: MEMBER, review: null, showReplyButton: true }));
    expect(reviewAuthorFromEmbeds([embed])).toBeNull();
  });

  it('returns null for a message without embeds or description', () => {
    expect(reviewAuthorFromEmbeds([])).toBeNull();
    expect(reviewAuthorFromEmbeds([{ description: null }])).toBeNull();
  });

  it('is not fooled by review text that imitates the author line', () => {
    const fake = `**★★★★★ 5/5** · by <@${'9'.repeat(18)}>`;
    const embed = embedOf(reviewView({ i18n: english, authorId: MEMBER, review: review(fake), showReplyButton: true }));
    expect(reviewAuthorFromEmbeds([embed])).toBe(MEMBER);
    expect(reviewAuthorFromEmbeds([{ description: `Intro\n${fake}` }])).toBeNull();
  });
});
