import { describe, expect, it } from '@jest/globals';
import { english, translatorFor } from '../../../src/i18n/index.js';
import { pictureOf, renderStats } from '../../../src/stats/render-stats.js';
import { readStats, type StatsSource } from '../../../src/stats/stats-data.js';
import { statsView } from '../../../src/stats/stats-view.js';

// Issue 34: /stats stacks the votes by list; a server only on Guilds keeps the picture it had.
const NOW = new Date(Date.UTC(2026, 10, 24, 15, 30));
const source = (perSite: Record<string, number[]>): StatsSource => ({
  votesPerDay: async (_from, days) =>
    Array.from({ length: days }, (_, day) => Object.values(perSite).reduce((sum, votes) => sum + (votes[day] ?? 0), 0)),
  ratingCounts: async () => [],
  votesPerDayBySite: async () => perSite,
});

describe('/stats by list', () => {
  it('draws Guilds-only votes as the one series it always was', async () => {
    const stats = await readStats(source({ guilds: [1, 2] }), NOW, 2);
    expect(stats.bySite).toBeUndefined();
    expect(pictureOf(stats, english)).not.toHaveProperty('votesBySite');
    const plain = await readStats({ ...source({ guilds: [1, 2] }), votesPerDayBySite: undefined }, NOW, 2);
    const one = await renderStats(stats, english, { inProcess: true });
    expect(one.equals(await renderStats(plain, english, { inProcess: true }))).toBe(true);
    expect(
      statsView({ data: stats, png: one, countingSince: NOW, i18n: english }).embeds[0]!.toJSON().description,
    ).not.toContain('By list');
  });

  it('stacks each list, Guilds first, named as the sites name themselves, with their totals as text', async () => {
    const stats = await readStats(source({ topgg: [0, 2], guilds: [1, 2], discordplace: [3, 0] }), NOW, 2);
    expect(stats.votes).toEqual([4, 4]);
    expect(stats.bySite).toEqual([
      { name: 'Guilds', votes: [1, 2] },
      { name: 'Top.gg', votes: [0, 2] },
      { name: 'discord.place', votes: [3, 0] },
    ]);
    expect(pictureOf(stats, translatorFor('de')).votesBySite?.map((s) => s.label)).toEqual([
      'Guilds',
      'Top.gg',
      'discord.place',
    ]);
    const stacked = await renderStats(stats, english, { inProcess: true });
    const merged = await renderStats({ ...stats, bySite: undefined }, english, { inProcess: true });
    expect(stacked.equals(merged)).toBe(false);
    const text = statsView({ data: stats, png: stacked, countingSince: NOW, i18n: english }).embeds[0]!.toJSON()
      .description;
    expect(text).toContain('By list:\nGuilds: 3\nTop.gg: 2\ndiscord.place: 3');
  });
});
