import { describe, expect, it } from '@jest/globals';
import { english, translatorFor } from '../../../src/i18n/index.js';
import { EMBED_DESCRIPTION_MAX, EMBED_TOTAL_MAX } from '../../../src/core/discord-limits.js';
import { embedSize } from '../../../src/views/embed-size.js';
import { reviewAuthorInMessage } from '../../../src/views/review-author.js';
import { REVIEWS_PER_POST, reviewFeedBatchView, reviewFeedView } from '../../../src/views/review-feed.js';
import { packVoteAnnouncement, voteAnnouncementView } from '../../../src/views/vote-announcement.js';
import { buttonsOf, customIdOf, embedOf, embedText, MEMBER, NOW, NOW_UNIX } from './view-json.js';

const MODERATOR = '876543210987654321';
const post = {
  reviewId: 'rev_7Hq2LmX9',
  authorId: MEMBER,
  rating: 2,
  content: '**Loud** <@&123456789012345678> server',
  receivedAt: NOW.getTime(),
  channelId: '900000000000000001',
  messageId: '900000000000000002',
  answer: null,
};

describe('the review feed post', () => {
  it('shows a new review with the Reply button, its text escaped and unable to ping', () => {
    const view = reviewFeedView(post, english);
    const embed = embedOf(view);
    expect(embed.title).toBe('New review');
    expect(embed.description).toContain(`<@${MEMBER}>`);
    expect(embed.description).toContain('\\*\\*Loud\\*\\* <\u200b@&123456789012345678> server');
    expect(buttonsOf(view).map(customIdOf)).toEqual(['review-reply:rev_7Hq2LmX9']);
    expect(view.allowedMentions).toEqual({ parse: [] });
  });

  it('marks an answered review with who answered and when, keeping the button', () => {
    const view = reviewFeedView(
      { ...post, answer: { replyId: 'rep_1', moderatorId: MODERATOR, at: NOW.getTime() } },
      english,
    );
    const embed = embedOf(view);
    expect(embed.title).toBe('New review · answered');
    expect(embedText(embed)).toContain(`by <@${MODERATOR}> <t:${NOW_UNIX}:R>`);
    expect(embed.fields?.find((f) => f.name === 'Replies')?.value).toBe('1');
    expect(buttonsOf(view)).toHaveLength(1);
  });

  it('says only that it was answered when the reply came from elsewhere', () => {
    const embed = embedOf(
      reviewFeedView({ ...post, answer: { replyId: null, moderatorId: null, at: NOW.getTime() } }, english),
    );
    expect(embed.fields?.find((f) => f.name === 'Answered')?.value).toBe(
      `✅ <t:${NOW_UNIX}:R> (<t:${NOW_UNIX}:f>) · after less than a minute`,
    );
  });

  it('shows how long an unanswered review has waited as a relative timestamp that stays current by itself', () => {
    const embed = embedOf(reviewFeedView(post, english));
    expect(embed.fields?.find((f) => f.name === 'Waiting for a reply')?.value).toBe(`<t:${NOW_UNIX}:R>`);
  });

  it('writes out how long an answered review waited, and no longer says it is waiting', () => {
    const at = NOW.getTime() + 26 * 3_600_000 + 5 * 60_000;
    const embed = embedOf(reviewFeedView({ ...post, answer: { replyId: null, moderatorId: null, at } }, english));
    expect(embed.fields?.find((f) => f.name === 'Answered')?.value).toMatch(/ · after 1 d 2 h$/);
    expect(embed.fields?.some((f) => f.name === 'Waiting for a reply')).toBe(false);
  });
});

describe('the vote announcement', () => {
  it('lists each voter on a line, says which votes were double, and shows the totals', () => {
    const embed = embedOf(
      voteAnnouncementView(
        [
          { userId: MEMBER, double: true },
          { userId: MODERATOR, double: false },
        ],
        { total: 4_812, thisMonth: 367 },
        english,
      ),
    );
    expect(embed.title).toBe('2 new votes');
    expect(embed.description).toBe(`<@${MEMBER}> voted (double vote)\n<@${MODERATOR}> voted`);
    expect(embed.footer?.text).toBe('Total votes: 4,812 · This month: 367');
  });

  it('leaves out the total when no poll has given one', () => {
    const embed = embedOf(
      voteAnnouncementView([{ userId: MEMBER, double: false }], { total: undefined, thisMonth: 1 }, english),
    );
    expect(embed.title).toBe('New vote');
    expect(embed.footer?.text).toBe('This month: 1');
  });

  it('packs as many voters into one message as Discord allows, and says how many it took', () => {
    const voters = Array.from({ length: 300 }, (_, i) => ({
      userId: String(10_000_000_000_000_000_000n - BigInt(i)),
      double: true,
    }));
    const names = new Map(voters.map((v) => [v.userId, 'A rather long display name']));
    const { view, count } = packVoteAnnouncement(voters, { total: 1, thisMonth: 1 }, english, names);
    const size = view.embeds.reduce((sum, embed) => sum + embedSize(embed), 0);
    expect(size).toBeLessThanOrEqual(EMBED_TOTAL_MAX);
    for (const embed of view.embeds) expect(embed.data.description!.length).toBeLessThanOrEqual(EMBED_DESCRIPTION_MAX);
    // Full: one more voter would not fit.
    const next = voteAnnouncementView(voters.slice(0, count + 1), { total: 1, thisMonth: 1 }, english, names);
    expect(next.embeds.reduce((sum, embed) => sum + embedSize(embed), 0)).toBeGreaterThan(EMBED_TOTAL_MAX);
    expect(count).toBeGreaterThan(50);
    expect(view.embeds[0]!.data.title).toBe(`${count} new votes`);
    expect(view.embeds.at(-1)!.data.footer?.text).toBe('Total votes: 1 · This month: 1');
  });

  it("speaks the server's language", () => {
    const embed = embedOf(
      voteAnnouncementView([{ userId: MEMBER, double: true }], { total: 4_812, thisMonth: 3 }, translatorFor('de')),
    );
    expect(embed.description).toBe(`<@${MEMBER}> hat abgestimmt (doppelte Stimme)`);
    expect(embed.footer?.text).toBe('Stimmen insgesamt: 4.812 · Diesen Monat: 3');
  });
});

describe('reviews that waited together', () => {
  const reviews = Array.from({ length: 12 }, (_, i) => ({
    ...post,
    reviewId: `rev_${i}`,
    authorId: String(200_000_000_000_000_000n + BigInt(i)),
    content: 'x'.repeat(200),
  }));

  it('share one message, each with a numbered Reply button of its own, within Discord limits', () => {
    const { view, count } = reviewFeedBatchView(reviews, english);
    expect(count).toBe(REVIEWS_PER_POST);
    expect(view.embeds.map((e) => e.data.author?.name)).toEqual(Array.from({ length: 10 }, (_, i) => `#${i + 1}`));
    const buttons = view.components.flatMap((row) => row.components.map((b) => b.toJSON()));
    expect(buttons.map((b) => ('label' in b ? b.label : ''))).toEqual(
      Array.from({ length: 10 }, (_, i) => `Reply #${i + 1}`),
    );
    expect(buttons.map((b) => ('custom_id' in b ? b.custom_id : ''))).toEqual(
      reviews.slice(0, 10).map((r) => `review-reply:${r.reviewId}`),
    );
    expect(view.components.every((row) => row.components.length <= 5)).toBe(true);
    expect(view.embeds.reduce((sum, e) => sum + embedSize(e), 0)).toBeLessThanOrEqual(EMBED_TOTAL_MAX);
  });

  it('stop at 6,000 characters when reviews are long', () => {
    const long = reviews.map((r) => ({ ...r, content: 'y'.repeat(2_500) }));
    const { view, count } = reviewFeedBatchView(long, english);
    expect(count).toBe(view.embeds.length);
    expect(count).toBeLessThan(4);
    expect(view.embeds.reduce((sum, e) => sum + embedSize(e), 0)).toBeLessThanOrEqual(EMBED_TOTAL_MAX);
  });

  it('draw one review exactly as a single feed post', () => {
    expect(reviewFeedBatchView([post], english).view).toEqual(reviewFeedView(post, english));
  });

  it("lets the reply form find the clicked review's author in the shared message", () => {
    const { view } = reviewFeedBatchView(reviews.slice(0, 3), english);
    const message = { embeds: view.embeds.map((e) => e.toJSON()), components: view.components.map((r) => r.toJSON()) };
    expect(reviewAuthorInMessage(message, 'rev_1', 'review-reply:rev_1')).toBe(reviews[1]!.authorId);
    expect(reviewAuthorInMessage(message, 'rev_9', 'review-reply:rev_9')).toBeNull();
  });
});
