import { describe, expect, it } from '@jest/globals';
import { english, translatorFor } from '../../../src/i18n/index.js';
import { rankVoters } from '../../../src/leaderboard/rank.js';
import { parseLeaderboardPage, streakBoardView } from '../../../src/views/leaderboard.js';
import { voteView } from '../../../src/views/vote.js';
import { buttonsOf, customIdOf, embedOf, MEMBER, NOW } from './view-json.js';

const id = (n: number) => String(300000000000000000n + BigInt(n));

describe('the streak leaderboard', () => {
  const ranked = rankVoters(Array.from({ length: 12 }, (_, n) => ({ userId: id(n), votes: 20 - Math.floor(n / 2) })));

  it('ranks the streaks going now, 10 a page, saying the grace window', () => {
    const view = streakBoardView({ ranked, page: 1, graceHours: 12, i18n: english });
    const embed = embedOf(view);
    expect(embed.title).toBe('Leaderboard · streaks');
    const lines = embed.description!.split('\n');
    expect(lines[0]).toBe('Vote periods in a row, each vote within 12 h after the last one ran out:');
    expect(lines[1]).toBe(`1\\. <@${id(0)}> · 20 in a row`);
    expect(lines[2]).toBe(`1\\. <@${id(1)}> · 20 in a row`);
    expect(lines[3]).toBe(`3\\. <@${id(2)}> · 19 in a row`);
    expect(lines).toHaveLength(11);
    expect(buttonsOf(view).map(customIdOf)).toContain('leaderboard-page:streak:2');
  });

  it('says so when no streak is going, in the language asked', () => {
    const embed = embedOf(streakBoardView({ ranked: [], page: 1, graceHours: 12, i18n: translatorFor('de') }));
    expect(embed.description).toBe('Gerade läuft keine Serie.');
  });

  it('reads back its page buttons and refuses forged ones', () => {
    expect(parseLeaderboardPage('streak:2')).toEqual({ streak: true, page: 2 });
    for (const bad of ['streak:0', 'streak:', 'streaks:1', 'streak:100000', 'streak:1:1']) {
      expect(parseLeaderboardPage(bad)).toBeNull();
    }
  });
});

describe('the streak in /vote', () => {
  const base = { i18n: english, userId: MEMBER, self: true, now: NOW };

  it('shows a streak going, whether the vote runs or not', () => {
    const voted = embedOf(voteView({ ...base, status: { voted: true, remainingMs: 3_600_000 }, streak: 4 }));
    expect(voted.fields).toContainEqual({ name: 'Streak', value: '4 in a row', inline: true });
    const notVoted = embedOf(voteView({ ...base, status: { voted: false, remainingMs: null }, streak: 2 }));
    expect(notVoted.fields).toContainEqual({ name: 'Streak', value: '2 in a row', inline: true });
  });

  it('shows no streak field without a streak going', () => {
    for (const streak of [0, undefined]) {
      const embed = embedOf(voteView({ ...base, status: { voted: true, remainingMs: 3_600_000 }, streak }));
      expect(embed.fields?.some((field) => field.name === 'Streak')).toBe(false);
    }
  });
});
