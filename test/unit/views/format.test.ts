import { describe, expect, it } from '@jest/globals';
import { durationInWords, exactTime, relativeTime, stars, timeAfter } from '../../../src/views/format.js';
import {
  escapeUserText,
  mention,
  mentionWithName,
  nameText,
  neutraliseMentions,
  safeText,
  truncate,
} from '../../../src/core/discord-text.js';
import { NOW, NOW_UNIX } from './view-json.js';
import { english, translatorFor } from '../../../src/i18n/index.js';

describe('stars', () => {
  it('shows one filled star and four empty ones for a rating of 1, with the number for screen readers', () => {
    expect(stars(1)).toBe('★☆☆☆☆ 1/5');
  });

  it('shows five filled stars for a rating of 5', () => {
    expect(stars(5)).toBe('★★★★★ 5/5');
  });

  it('keeps out-of-range ratings within 0 to 5 stars', () => {
    expect(stars(9)).toBe('★★★★★ 5/5');
    expect(stars(-2)).toBe('☆☆☆☆☆ 0/5');
  });
});

describe('timestamps', () => {
  it('writes a relative Discord timestamp in whole seconds', () => {
    expect(relativeTime(NOW)).toBe(`<t:${NOW_UNIX}:R>`);
  });

  it('writes an exact Discord timestamp with date and time', () => {
    expect(exactTime(NOW)).toBe(`<t:${NOW_UNIX}:f>`);
  });

  it('computes a moment from now plus a number of milliseconds', () => {
    expect(timeAfter(NOW, 90_000).toISOString()).toBe('2025-03-01T12:01:30.000Z');
  });
});

describe('numbers', () => {
  it("groups thousands as the member's language does", () => {
    expect(english.number(1234567)).toBe('1,234,567');
    expect(english.number(12)).toBe('12');
    expect(translatorFor('de').number(1234567)).toBe('1.234.567');
  });
});

describe('durationInWords', () => {
  it('says hours and minutes, rounded down', () => {
    expect(durationInWords((9 * 60 + 58) * 60_000 + 59_000, english)).toBe('9 h 58 min');
  });

  it('says only minutes under an hour', () => {
    expect(durationInWords(12 * 60_000, english)).toBe('12 min');
  });

  it('says whole hours without "0 min"', () => {
    expect(durationInWords(2 * 3_600_000, english)).toBe('2 h');
  });

  it('says days and hours for long durations', () => {
    expect(durationInWords(50 * 3_600_000, english)).toBe('2 d 2 h');
  });

  it('says "less than a minute" under a minute, at zero and below', () => {
    expect(durationInWords(59_999, english)).toBe('less than a minute');
    expect(durationInWords(0, english)).toBe('less than a minute');
    expect(durationInWords(-5, english)).toBe('less than a minute');
  });

  it("speaks the member's language", () => {
    expect(durationInWords(50 * 3_600_000, translatorFor('de'))).toBe('2 T. 2 Std.');
    expect(durationInWords(30_000, translatorFor('fr'))).toBe('moins d’une minute');
  });
});

describe('user text', () => {
  it('escapes bold markdown so it shows as typed', () => {
    expect(escapeUserText('**bold**')).toBe('\\*\\*bold\\*\\*');
  });

  it('escapes code blocks so they cannot swallow the rest of the embed', () => {
    expect(escapeUserText('```js\nx()\n```')).toBe('\\`\\`\\`js\nx()\n\\`\\`\\`');
  });

  it('escapes headings, quotes, subtext and masked links', () => {
    expect(escapeUserText('# Big')).toBe('\\# Big');
    expect(escapeUserText('> quoted')).toBe('\\> quoted');
    expect(escapeUserText('-# small')).toBe('\\-# small');
    expect(escapeUserText('[free nitro](https://evil.example)')).toBe('\\[free nitro\\](https://evil.example)');
  });

  it('escapes every asterisk in a long run, which escapeMarkdown does not', () => {
    expect(escapeUserText('****')).toBe('\\*\\*\\*\\*');
  });

  it('escapes underscores, tildes, spoilers and backslashes', () => {
    expect(escapeUserText('__u__ ~~s~~ ||sp|| a\\b')).toBe('\\_\\_u\\_\\_ \\~\\~s\\~\\~ \\|\\|sp\\|\\| a\\\\b');
  });

  it('escapes list markers at the start of a line only', () => {
    expect(escapeUserText('- one\n2. two\nnot - a list')).toBe('\\- one\n2\\. two\nnot - a list');
  });

  it('leaves underscores inside links alone so the links still work', () => {
    expect(escapeUserText('_see_ https://example.com/a_b_c.')).toBe('\\_see\\_ https://example.com/a_b_c.');
  });

  it('breaks @everyone and @here with a zero-width space', () => {
    expect(neutraliseMentions('hi @everyone and @here')).toBe('hi @\u200beveryone and @\u200bhere');
  });

  it('breaks user, role, channel and command mentions and timestamps so they show as text', () => {
    expect(neutraliseMentions('<@123456789012345678> <@&1> <#2> </vote:3> <t:0:R>')).toBe(
      '<\u200b@123456789012345678> <\u200b@&1> <\u200b#2> <\u200b/vote:3> <\u200bt:0:R>',
    );
  });

  it('leaves plain text and links alone', () => {
    expect(escapeUserText('Great server, see https://example.com/a_b')).toBe(
      'Great server, see https://example.com/a_b',
    );
  });
});

describe('truncation', () => {
  it('returns short text unchanged', () => {
    expect(truncate('short', 10)).toBe('short');
  });

  it('cuts long text to the limit, ellipsis included', () => {
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
  });

  it('never leaves half an emoji behind', () => {
    expect(truncate('ab😀cd', 4)).toBe('ab…');
  });

  it('cuts user text before escaping, so the result fits and no escape is split', () => {
    const text = safeText('*'.repeat(100), 11);
    expect(text).toBe('\\*\\*\\*\\*\\*…');
    expect(text.length).toBeLessThanOrEqual(11);
  });
});

describe('mention', () => {
  it('mentions a real user id', () => {
    expect(mention('123456789012345678')).toBe('<@123456789012345678>');
  });

  it('shows anything that is not a user id as escaped text', () => {
    expect(mention('everyone>')).not.toContain('<@');
    expect(mention('@everyone')).toBe('@\u200beveryone');
  });

  it('shows a name beside the mention as a label that no client turns into a link', () => {
    expect(mentionWithName('123456789012345678', 'gift https://evil.example')).toBe(
      '<@123456789012345678> (gift https:\u200b//evil.example)',
    );
    expect(nameText('https://evil.example/a_b_ [x](http://y.z)', 100)).toBe(
      'https:\u200b//evil.example/a\\_b\\_ \\[x\\](http:\u200b//y.z)',
    );
  });

  it('keeps a cut name within its bound with its links broken', () => {
    const shown = nameText(`${'a'.repeat(20)} HTTPS://evil.example`, 30);
    expect(shown.length).toBeLessThanOrEqual(30);
    expect(shown).not.toMatch(/https?:\/\//i);
  });
});

describe('user text of any size', () => {
  it('cuts a 50 MB markdown-heavy text to what is shown before escaping it (escaping it whole crashed V8)', () => {
    const huge = '*_~`|'.repeat(10_000_000);
    const shown = safeText(huge, 3_800);
    expect(shown.length).toBeLessThanOrEqual(3_800);
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.startsWith('\\*\\_\\~\\`\\|')).toBe(true);
  });

  it('still ends in an ellipsis when invisible characters were dropped from the part that is shown', () => {
    const text = `${'\u202e'.repeat(5)}${'a'.repeat(20)}`;
    expect(safeText(text, 10)).toMatch(/^a{1,9}…$/);
  });
});

describe('text that displays as written', () => {
  it.each([
    ['a right-to-left override', 'good \u202Etxet desrever\u202C end', 'good txet desrever end'],
    ['isolates and embeddings', '\u2066a\u2067b\u2068c\u2069 \u202Ad\u202Be\u202C', 'abc de'],
    ['marks, zero-width spaces and a BOM', 'x\u200Ey\u200Fz\u200B!\uFEFF\u061C', 'xyz!'],
    ['invisible tag characters', 'hi\u{E0068}\u{E0069}', 'hi'],
  ])('removes %s', (_, text, expected) => {
    expect(safeText(text)).toBe(expected);
  });

  it('keeps the joiners emoji sequences need and a subdivision flag', () => {
    const family = '👩\u200D👩\u200D👧';
    const england = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';
    expect(safeText(`${family} ${england}`)).toBe(`${family} ${england}`);
  });

  it('shows a service id with a direction override as escaped text without it', () => {
    expect(mention('rev\u202Eabc')).toBe('revabc');
  });
});
