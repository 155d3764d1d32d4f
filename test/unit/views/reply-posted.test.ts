import { describe, expect, it } from '@jest/globals';
import { replyPostedView } from '../../../src/views/reply-posted.js';
import { embedOf } from './view-json.js';
import { english } from '../../../src/i18n/index.js';

describe('replyPostedView', () => {
  const view = replyPostedView({
    i18n: english,
    reviewId: 'rev_8f3a2c',
    replyId: 'rep_19',
    content: 'Thanks **so** much,\n@everyone loves you',
    pinned: true,
  });
  const embed = embedOf(view);

  it('says the reply was posted', () => {
    expect(embed.title).toBe('Reply posted');
  });

  it('quotes the reply text, escaped, line by line', () => {
    expect(embed.description).toBe('> Thanks \\*\\*so\\*\\* much,\n> @\u200beveryone loves you');
  });

  it('says whether it was pinned and gives the new reply id and the review id', () => {
    expect(embed.fields).toEqual([
      { name: 'Pinned', value: 'Yes', inline: true },
      { name: 'Reply ID', value: '`rep_19`', inline: true },
      { name: 'Review ID', value: '`rev_8f3a2c`', inline: true },
    ]);
  });

  it('says No for a reply that was not pinned', () => {
    const unpinned = embedOf(
      replyPostedView({ i18n: english, reviewId: 'r', replyId: 'p', content: 'ok', pinned: false }),
    );
    expect(unpinned.fields?.[0]).toEqual({ name: 'Pinned', value: 'No', inline: true });
  });

  it('shortens a long reply in the quote', () => {
    const long = embedOf(
      replyPostedView({ i18n: english, reviewId: 'r', replyId: 'p', content: 'y'.repeat(1000), pinned: false }),
    );
    expect(long.description).toBe(`> ${'y'.repeat(499)}…`);
  });

  it('shows a review id with a backtick as escaped text, not broken code', () => {
    const odd = embedOf(
      replyPostedView({ i18n: english, reviewId: 'a`b', replyId: 'p', content: 'ok', pinned: false }),
    );
    expect(odd.fields?.[2]?.value).toBe('a\\`b');
  });

  it.each([
    ['a masked link', '[click](https://evil.example)'],
    ['a backtick', 'a`b'],
    ['a mention', '@everyone'],
  ])('does not show a reply id holding %s: the service only gets to name ids', (_, replyId) => {
    const odd = embedOf(replyPostedView({ i18n: english, reviewId: 'r', replyId, content: 'ok', pinned: false }));
    expect(odd.fields?.[1]?.value).toBe('not shown (not an id)');
  });

  it('pings nobody and has no buttons', () => {
    expect(view.allowedMentions).toEqual({ parse: [] });
    expect(view.components).toHaveLength(0);
  });
});
