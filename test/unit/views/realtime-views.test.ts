import { describe, expect, it } from '@jest/globals';
import { english, translatorFor } from '../../../src/i18n/index.js';
import { reviewFeedView } from '../../../src/views/review-feed.js';
import { VOTERS_PER_ANNOUNCEMENT, voteAnnouncementView } from '../../../src/views/vote-announcement.js';
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
    expect(embed.fields?.find((f) => f.name === 'Answered')?.value).toBe(`✅ <t:${NOW_UNIX}:R> (<t:${NOW_UNIX}:f>)`);
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

  it('fits a full batch inside one embed description', () => {
    const voters = Array.from({ length: VOTERS_PER_ANNOUNCEMENT }, (_, i) => ({
      userId: String(10_000_000_000_000_000_000n - BigInt(i)),
      double: true,
    }));
    expect(
      embedOf(voteAnnouncementView(voters, { total: 1, thisMonth: 1 }, english)).description!.length,
    ).toBeLessThanOrEqual(4_096);
  });

  it("speaks the server's language", () => {
    const embed = embedOf(
      voteAnnouncementView([{ userId: MEMBER, double: true }], { total: 4_812, thisMonth: 3 }, translatorFor('de')),
    );
    expect(embed.description).toBe(`<@${MEMBER}> hat abgestimmt (doppelte Stimme)`);
    expect(embed.footer?.text).toBe('Stimmen insgesamt: 4.812 · Diesen Monat: 3');
  });
});
