import { listName } from '../../../src/lists/index.js';
import { deliveryFixes } from '../../../src/setup/delivery-fixes.js';
import type { DeliveryRecord } from '../../../src/store/index.js';
import { describe, expect, it } from '@jest/globals';
import { english } from '../../../src/i18n/index.js';
import { EMBED_TOTAL_MAX } from '../../../src/core/discord-limits.js';
import type { FeedReview } from '../../../src/store/index.js';
import { deliveryLogEmbed } from '../../../src/views/delivery-log.js';
import { embedSize } from '../../../src/views/embed-size.js';
import { inboxPageOf, reviewInboxView } from '../../../src/views/review-inbox.js';
import { buttonsOf, customIdOf, embedText, MEMBER, NOW, NOW_UNIX } from './view-json.js';

const review = (n: number, content = `Review number ${n}`): FeedReview => ({
  reviewId: `rev_${n}`,
  authorId: MEMBER,
  rating: 4,
  content,
  receivedAt: NOW.getTime() + n,
  answer: null,
});
const page = (from: number, count: number, content?: string) =>
  Array.from({ length: count }, (_, i) => review(from + i, content));

describe('the review inbox', () => {
  it("numbers the page's reviews from where the page starts, each with its Reply button, then Previous and Next", () => {
    const view = reviewInboxView({ reviews: page(6, 5), total: 12, current: 2, pageCount: 3, i18n: english });
    const [header, ...reviews] = view.embeds.map((embed) => embed.toJSON());
    expect(header?.title).toBe('Reviews waiting for a reply');
    expect(header?.description).toContain('Waiting: 12');
    expect(header?.footer?.text).toBe('Page 2 of 3');
    expect(reviews.map((embed) => embed.author?.name)).toEqual(['#6', '#7', '#8', '#9', '#10']);
    const buttons = buttonsOf(view);
    expect(buttons.map(customIdOf)).toEqual([
      'review-reply:rev_6',
      'review-reply:rev_7',
      'review-reply:rev_8',
      'review-reply:rev_9',
      'review-reply:rev_10',
      'reviews-page:1',
      'reviews-page:3',
    ]);
    expect(buttons.map((button) => ('label' in button ? button.label : undefined)).slice(0, 2)).toEqual([
      'Reply #6',
      'Reply #7',
    ]);
    expect(view.allowedMentions).toEqual({ parse: [] });
  });

  it('says how long each review has waited', () => {
    const view = reviewInboxView({ reviews: page(0, 1), total: 1, current: 1, pageCount: 1, i18n: english });
    expect(embedText(view.embeds[1]!.toJSON())).toContain(`Waiting for a reply\n<t:${NOW_UNIX}:R>`);
  });

  it('offers Refresh instead of paging on a single page, so no two buttons share a custom id', () => {
    const view = reviewInboxView({ reviews: page(1, 2), total: 2, current: 1, pageCount: 1, i18n: english });
    const ids = buttonsOf(view).map(customIdOf);
    expect(ids).toEqual(['review-reply:rev_1', 'review-reply:rev_2', 'reviews-page:1']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("shows five of the longest reviews inside Discord's 6,000 characters, shortening their text", () => {
    const view = reviewInboxView({
      reviews: page(1, 5, 'x'.repeat(3_800)),
      total: 5,
      current: 1,
      pageCount: 1,
      i18n: english,
    });
    expect(view.embeds).toHaveLength(6);
    expect(view.embeds.reduce((sum, embed) => sum + embedSize(embed), 0)).toBeLessThanOrEqual(EMBED_TOTAL_MAX);
  });

  it('says so when nothing waits, with no buttons', () => {
    const view = reviewInboxView({ reviews: [], total: 0, current: 1, pageCount: 1, i18n: english });
    expect(view.embeds[0]!.toJSON().description).toBe('No review waits for a reply.');
    expect(view.components).toEqual([]);
  });

  it('finds the page an inbox message shows from its first number, and no page in other messages', () => {
    const view = reviewInboxView({ reviews: page(6, 5), total: 12, current: 2, pageCount: 3, i18n: english });
    const message = {
      embeds: view.embeds.map((embed) => embed.toJSON()),
      components: view.components.map((row) => row.toJSON()),
    };
    expect(inboxPageOf(message)).toBe(2);
    const feedPost = { embeds: message.embeds.slice(1, 2), components: message.components.slice(0, 1) };
    expect(inboxPageOf(feedPost)).toBeNull();
  });
});

describe('the delivery log in /setup status', () => {
  const at = NOW.getTime();
  it('lists each delivery with when, its kind and outcome, and says how to fix a wrong token', () => {
    const lines: DeliveryRecord[] = [
      { guildId: MEMBER, at, event: '?', outcome: 'wrong_token' },
      { guildId: MEMBER, at, event: 'vote', outcome: 'duplicate' },
      { guildId: MEMBER, at, event: 'review', outcome: 'stored' },
      { guildId: MEMBER, at, event: 'topgg vote', outcome: 'stored' },
    ];
    const embed = deliveryLogEmbed(
      lines,
      english,
      deliveryFixes(lines, english, '`/setup webhook`', new Set()),
      listName,
    ).toJSON();
    expect(embed.title).toBe('Last webhook deliveries');
    expect(embed.description?.split('\n')).toEqual([
      `✘ <t:${NOW_UNIX}:R> (<t:${NOW_UNIX}:f>) · unknown event · refused: wrong token`,
      `✔ <t:${NOW_UNIX}:R> (<t:${NOW_UNIX}:f>) · \`vote\` · duplicate: received before, nothing done twice`,
      `✔ <t:${NOW_UNIX}:R> (<t:${NOW_UNIX}:f>) · \`review\` · stored`,
      // A list's delivery by the list's name, not its id.
      `✔ <t:${NOW_UNIX}:R> (<t:${NOW_UNIX}:f>) · Top.gg \`vote\` · stored`,
      '',
      'a wrong token: run `/setup webhook` and set the same token on the Guilds webhook page',
    ]);
  });

  it('says when there is nothing yet, or when the log could not be read', () => {
    expect(deliveryLogEmbed([], english, [], listName).toJSON().description).toBe('none recorded yet');
    expect(deliveryLogEmbed('unreadable', english, [], listName).toJSON().description).toContain('could not be read');
  });
});
