import { describe, expect, it } from '@jest/globals';
import { english } from '../../../src/i18n/index.js';
import { monthOf } from '../../../src/leaderboard/month.js';
import { rankVoters } from '../../../src/leaderboard/rank.js';
import { leaderboardView, parseLeaderboardPage } from '../../../src/views/leaderboard.js';
import { parseVotesTarget, votesView } from '../../../src/views/votes.js';
import { NOW, buttonsOf, customIdOf, embedOf } from './view-json.js';

// Issue 34: /leaderboard's and /votes' page buttons carry the one list chosen with site:.
describe('page buttons of one list', () => {
  it('parse with and without a site, and refuse what is not a page', () => {
    expect(parseLeaderboardPage('2026-11:2:topgg')).toEqual({
      month: { year: 2026, month: 11 },
      page: 2,
      site: 'topgg',
    });
    expect(parseLeaderboardPage('2026-11:2')).toEqual({ month: { year: 2026, month: 11 }, page: 2 });
    expect(parseLeaderboardPage('2026-11:2:')).toBeNull();
    expect(parseLeaderboardPage('2026-11:2:Top.gg')).toBeNull();
    expect(parseVotesTarget('3:discordplace')).toEqual({ page: 3, site: 'discordplace' });
    expect(parseVotesTarget('3')).toEqual({ page: 3 });
    expect(parseVotesTarget('0:topgg')).toBeNull();
    expect(parseVotesTarget('3:')).toBeNull();
  });

  it('lead to the same list', () => {
    const ranked = rankVoters(
      Array.from({ length: 12 }, (_, i) => ({ userId: String(100000000000000000n + BigInt(i)), votes: 1 })),
    );
    const board = leaderboardView({
      month: monthOf(NOW),
      ranked,
      page: 1,
      countingSince: NOW,
      i18n: english,
      site: { id: 'topgg', name: 'Top.gg' },
    });
    expect(embedOf(board).description).toContain('Only the votes on Top.gg.');
    expect(buttonsOf(board).map(customIdOf)).toContain(`leaderboard-page:${NOW.toISOString().slice(0, 7)}:2:topgg`);

    const votes = Array.from({ length: 12 }, (_, i) => ({
      userId: String(100000000000000000n + BigInt(i)),
      remainingMs: 60_000 * (i + 1),
      viaDiscord: false,
    }));
    const view = votesView({
      list: { totalVotes: 12, monthlyVotes: 12, votes },
      page: 1,
      now: NOW,
      i18n: english,
      site: { id: 'topgg', name: 'Top.gg' },
    });
    expect(embedOf(view).title).toBe('Votes · Top.gg');
    expect(buttonsOf(view).map(customIdOf)).toContain('votes-page:2:topgg');
  });

  it("add a line per other list under Guilds' votes, none when there is no other list", () => {
    const list = { totalVotes: 0, monthlyVotes: 0, votes: [] };
    const alone = votesView({ list, page: 1, now: NOW, i18n: english });
    expect(embedOf(alone).description).toBe(english.t('votes.empty'));
    const others = votesView({
      list,
      page: 1,
      now: NOW,
      i18n: english,
      otherLists: [{ name: 'Top.gg', votes: 1234 }],
    });
    expect(embedOf(others).description).toBe(`${english.t('votes.empty')}\n\nTop.gg: 1,234 this month`);
  });
});
