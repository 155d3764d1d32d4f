import { describe, expect, it } from '@jest/globals';
import { replyAuditView } from '../../../src/views/reply-audit.js';
import { MEMBER, NOW, NOW_UNIX, embedOf } from './view-json.js';
import { english } from '../../../src/i18n/index.js';

const MODERATOR = '876543210987654321';

describe('replyAuditView', () => {
  const content = `We fixed it. ${'**Thanks** <@111111111111111111> '.repeat(30)}`.trim();
  const view = replyAuditView({
    i18n: english,
    moderatorId: MODERATOR,
    review: { id: 'rev_8f3a2c', authorId: MEMBER, rating: 2 },
    reply: { id: 'rep_19', content, pinned: false },
    at: NOW,
  });
  const embed = embedOf(view);
  const field = (name: string) => embed.fields?.find((f) => f.name === name)?.value;

  it('names the moderator as a mention and as a raw id', () => {
    expect(field('Moderator')).toBe(`<@${MODERATOR}> (\`${MODERATOR}\`)`);
  });

  it('identifies the review by id, author and rating', () => {
    expect(field('Review ID')).toBe('`rev_8f3a2c`');
    expect(field('Review author')).toBe(`<@${MEMBER}> (\`${MEMBER}\`)`);
    expect(field('Rating')).toBe('★★☆☆☆ 2/5');
  });

  it('gives the reply id and whether it was pinned', () => {
    expect(field('Reply ID')).toBe('`rep_19`');
    expect(field('Pinned')).toBe('No');
  });

  it('records the time exactly and relatively, and as the embed timestamp', () => {
    expect(field('Time')).toBe(`<t:${NOW_UNIX}:f> (<t:${NOW_UNIX}:R>)`);
    expect(embed.timestamp).toBe(NOW.toISOString());
  });

  it('keeps the whole reply text, escaped, with mentions in it broken', () => {
    expect(embed.description).toContain('We fixed it. \\*\\*Thanks\\*\\* <\u200b@111111111111111111>');
    expect(embed.description?.match(/Thanks/g)).toHaveLength(30);
    expect(embed.description?.endsWith('…')).toBe(false);
  });

  it('keeps a worst-case 1,000-character reply whole', () => {
    const worst = embedOf(
      replyAuditView({
        i18n: english,
        moderatorId: MODERATOR,
        review: { id: 'r' },
        reply: { id: 'p', content: '*'.repeat(1000), pinned: true },
        at: NOW,
      }),
    );
    expect(worst.description).toBe('\\*'.repeat(1000));
  });

  it('says Unknown for an author and rating the handler does not know', () => {
    const bare = embedOf(
      replyAuditView({
        i18n: english,
        moderatorId: MODERATOR,
        review: { id: 'r' },
        reply: { id: 'p', content: 'ok', pinned: true },
        at: NOW,
      }),
    );
    expect(bare.fields?.find((f) => f.name === 'Review author')?.value).toBe('Unknown');
    expect(bare.fields?.find((f) => f.name === 'Rating')?.value).toBe('Unknown');
    expect(bare.fields?.find((f) => f.name === 'Pinned')?.value).toBe('Yes');
  });

  it('pings nobody, the moderator included', () => {
    expect(view.allowedMentions).toEqual({ parse: [] });
  });
});
