import { describe, expect, it } from '@jest/globals';
import { english, translatorFor } from '../../../src/i18n/index.js';
import { monthKey, monthOf, monthRange, parseMonth } from '../../../src/leaderboard/month.js';
import { rankVoters } from '../../../src/leaderboard/rank.js';
import { leaderboardView, parseLeaderboardPage } from '../../../src/views/leaderboard.js';
import { buttonsOf, customIdOf, embedOf } from '../views/view-json.js';

const id = (n: number) => String(300000000000000000n + BigInt(n));

describe('rankVoters', () => {
  it('ranks most votes first, ties sharing a rank and the next rank skipping', () => {
    const ranked = rankVoters([
      { userId: id(3), votes: 2 },
      { userId: id(1), votes: 5 },
      { userId: id(4), votes: 1 },
      { userId: id(2), votes: 2 },
    ]);
    expect(ranked.map((r) => [r.rank, r.userId, r.votes])).toEqual([
      [1, id(1), 5],
      [2, id(2), 2],
      [2, id(3), 2],
      [4, id(4), 1],
    ]);
  });
});

describe('months', () => {
  it('reads YYYY-MM and refuses anything else', () => {
    expect(parseMonth('2026-11')).toEqual({ year: 2026, month: 11 });
    expect(parseMonth(' 2026-3 ')).toEqual({ year: 2026, month: 3 });
    for (const bad of ['2026-13', '2026-00', '11-2026', 'November', '1999-12', '2026-11-01', '']) {
      expect(parseMonth(bad)).toBeNull();
    }
  });

  it('spans the calendar month in UTC, and names the month of a date in UTC', () => {
    const { from, to } = monthRange({ year: 2026, month: 12 });
    expect(new Date(from).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(new Date(to).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(monthKey(monthOf(new Date('2026-02-28T23:59:59Z')))).toBe('2026-02');
  });
});

describe('leaderboardView', () => {
  const ranked = rankVoters(Array.from({ length: 23 }, (_, n) => ({ userId: id(n), votes: 30 - n })));
  const november = { year: 2026, month: 11 };

  it('shows 10 a page with the month, the votes and since when the bot counts', () => {
    const view = leaderboardView({
      month: november,
      ranked,
      page: 1,
      countingSince: new Date('2026-10-02T00:00:00Z'),
      i18n: english,
    });
    const embed = embedOf(view);
    expect(embed.title).toBe('Leaderboard · November 2026');
    expect(embed.description).toContain(`1\\. <@${id(0)}> · 30 votes`);
    expect(embed.description).toContain(`10\\. <@${id(9)}> · 21 votes`);
    expect(embed.description).not.toContain(`<@${id(10)}>`);
    expect(embed.description).toContain('Counting since <t:1790899200:D>.');
    expect(embed.footer?.text).toBe('Page 1 of 3');
    expect(buttonsOf(view).map(customIdOf)).toEqual(['leaderboard-page:2026-11:1', 'leaderboard-page:2026-11:2']);
  });

  it('says so when nobody voted that month, in the member’s language', () => {
    const embed = embedOf(
      leaderboardView({ month: november, ranked: [], page: 1, countingSince: null, i18n: translatorFor('de') }),
    );
    expect(embed.title).toBe('Rangliste · November 2026');
    expect(embed.description).toBe(
      'Im November 2026 wurden keine Stimmen gezählt.\nDer Bot hat noch keine Stimme gezählt.',
    );
  });

  it('reads back the month and page of its buttons, and refuses forged ones', () => {
    expect(parseLeaderboardPage('2026-11:2')).toEqual({ month: november, page: 2 });
    for (const bad of ['2026-13:1', '2026-11:0', '2026-11', 'x:1', '2026-11:100000']) {
      expect(parseLeaderboardPage(bad)).toBeNull();
    }
  });
});
