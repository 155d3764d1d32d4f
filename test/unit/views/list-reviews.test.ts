import { describe, expect, it } from '@jest/globals';
import { ButtonStyle } from 'discord-api-types/v10';
import { english } from '../../../src/i18n/index.js';
import { listReviewId, listReviewOrigin } from '../../../src/lists/index.js';
import type { FeedReview } from '../../../src/store/index.js';
import { reviewAuthorFromEmbeds } from '../../../src/views/review-author.js';
import { reviewInboxView } from '../../../src/views/review-inbox.js';
import { reviewFeedBatchView, reviewFeedView } from '../../../src/views/review-feed.js';
import { buttonsOf, customIdOf, embedOf, MEMBER, NOW } from './view-json.js';

const GUILD = '223456789012345678';
const review = (reviewId: string): FeedReview => ({
  reviewId,
  authorId: MEMBER,
  rating: 4,
  content: 'Nice server',
  receivedAt: NOW.getTime(),
  answer: null,
});
const fromList = review(listReviewId('discordlistspace', 'r-17'));
const fromGuilds = review('rev_1');
const originOf = (reviewId: string) => listReviewOrigin(reviewId, GUILD);
const PAGE = `https://discordlist.space/server/${GUILD}`;

describe("a list's review in the feed", () => {
  it('knows its list from its id, and a Guilds review as none', () => {
    expect(originOf(fromList.reviewId)).toEqual({ name: 'discordlist.space', url: PAGE });
    expect(originOf('rev_1')).toBeUndefined();
    expect(originOf('notalist:rev_1')).toBeUndefined();
  });

  it("is labelled with the list and links to the review's page on the site instead of Reply", () => {
    const view = reviewFeedView(fromList, english, undefined, originOf(fromList.reviewId));
    expect(embedOf(view).title).toBe('New review on discordlist.space');
    expect(buttonsOf(view)).toEqual([
      { type: 2, style: ButtonStyle.Link, label: 'Open on discordlist.space', url: PAGE },
    ]);
  });

  it('keeps Guilds reviews as they are beside it in one post: Reply for Guilds, the link for the list', () => {
    const { view, count } = reviewFeedBatchView([fromGuilds, fromList], english, new Map(), originOf);
    expect(count).toBe(2);
    expect(view.embeds.map((embed) => embed.toJSON().title)).toEqual(['New review', 'New review on discordlist.space']);
    const buttons = buttonsOf(view);
    expect(customIdOf(buttons[0])).toBe('review-reply:rev_1');
    expect(buttons[1]).toMatchObject({ style: ButtonStyle.Link, label: 'Open on discordlist.space #2', url: PAGE });
  });

  it('is in /reviews pending labelled with its list, with the link and no Reply', () => {
    const view = reviewInboxView({
      reviews: [fromGuilds, fromList],
      total: 2,
      current: 1,
      pageCount: 1,
      i18n: english,
      originOf,
    });
    expect(view.embeds[2]?.toJSON().title).toBe('New review on discordlist.space');
    const buttons = buttonsOf(view);
    expect(buttons.map((b) => ('url' in b ? b.url : customIdOf(b)))).toEqual([
      'review-reply:rev_1',
      PAGE,
      'reviews-page:1',
    ]);
  });
});

describe("a list's review without a rating", () => {
  const unrated: FeedReview = { ...fromList, rating: null };

  it('shows no stars, not 0/5, and its author line still names the author', () => {
    const view = reviewFeedView(unrated, english, undefined, originOf(unrated.reviewId));
    const { description } = embedOf(view);
    expect(description).not.toContain('☆');
    expect(description).not.toContain('/5');
    expect(description!.split('\n')[0]).toBe(`by <@${MEMBER}>`);
    expect(reviewAuthorFromEmbeds([{ description }])).toBe(MEMBER);
  });

  it('keeps the stars of a rated one', () => {
    expect(embedOf(reviewFeedView(fromList, english)).description!.split('\n')[0]).toBe(
      `**★★★★☆ 4/5** · by <@${MEMBER}>`,
    );
  });
});
