import { describe, expect, it } from '@jest/globals';
import { translatorFor } from '../../../src/i18n/index.js';
import { PICTURE_HEIGHT, PICTURE_WIDTH } from '../../../src/stats/draw-stats.js';
import { pictureOf, renderStats, STATS_DRAWN_AT_ONCE, statsDrawing } from '../../../src/stats/render-stats.js';
import { DAY_MS, readStats, type StatsSource } from '../../../src/stats/stats-data.js';
import { pngSize } from '../../support/png.js';

const NOW = new Date(Date.UTC(2026, 10, 24, 15, 30));
const source = (perDay: number[], ratings: Array<{ rating: number; reviews: number }>) => {
  const asked: Array<[number, number]> = [];
  const port: StatsSource = {
    votesPerDay: async (from, days) => {
      asked.push([from, days]);
      return perDay.slice(0, days);
    },
    ratingCounts: async () => ratings,
  };
  return { port, asked };
};

describe('the stats picture', () => {
  it('reads the last N UTC days up to today and buckets ratings as the feed draws stars', async () => {
    const { port, asked } = source(
      [1, 0, 4],
      [
        { rating: 5, reviews: 2 },
        { rating: 4.6, reviews: 1 },
        { rating: 1, reviews: 1 },
      ],
    );
    const stats = await readStats(port, NOW, 3);
    expect(asked).toEqual([[Date.UTC(2026, 10, 22), 3]]);
    expect(stats.days).toEqual([Date.UTC(2026, 10, 22), Date.UTC(2026, 10, 23), Date.UTC(2026, 10, 24)]);
    expect(stats.days[1]! - stats.days[0]!).toBe(DAY_MS);
    expect(stats.ratings).toEqual([0, 1, 0, 0, 0, 3]);
    expect(stats.reviews).toBe(4);
    expect(stats.averageRating).toBeCloseTo((10 + 4.6 + 1) / 4);
  });

  it("labels the axes and the days in the server's language", async () => {
    const { port } = source([2, 3], [{ rating: 0, reviews: 1 }]);
    const stats = await readStats(port, NOW, 2);
    const german = pictureOf(stats, translatorFor('de'));
    expect(german).toMatchObject({ votesTitle: 'Stimmen pro Tag', daysAxis: 'Tag (UTC)', votes: [2, 3] });
    expect(german.dayLabels).toEqual(['23. Nov.', '24. Nov.']);
    // A 0-star review is shown as its own bar, after 1 star.
    expect(german.ratingLabels).toEqual(['5 ★', '4 ★', '3 ★', '2 ★', '1 ★', '0 ★']);
    expect(german.ratings).toEqual([0, 0, 0, 0, 0, 1]);
    expect(pictureOf(stats, translatorFor('fr')).votesAxis).toBe('Votes');
    expect(pictureOf(stats, translatorFor('pt-BR')).ratingsTitle).toBe('Notas das avaliações');
  });

  it('draws a PNG of the size it promises, with the shipped font, again and again', async () => {
    const { port } = source(
      Array.from({ length: 30 }, (_, i) => i % 7),
      [{ rating: 5, reviews: 3 }],
    );
    const stats = await readStats(port, NOW, 30);
    const first = await renderStats(stats, translatorFor('en-US'), { inProcess: true });
    expect(pngSize(first)).toEqual({ width: PICTURE_WIDTH, height: PICTURE_HEIGHT });
    // A blank picture compresses to almost nothing: bars and text make it weigh.
    expect(first.length).toBeGreaterThan(10_000);
    const second = await renderStats(stats, translatorFor('en-US'), { inProcess: true });
    expect(second.equals(first)).toBe(true);
    const other = await renderStats({ ...stats, votes: stats.votes.map((v) => v + 1) }, translatorFor('en-US'), {
      inProcess: true,
    });
    expect(other.equals(first)).toBe(false);
  });

  it('draws at most STATS_DRAWN_AT_ONCE pictures at once; the others wait their turn and are drawn too', async () => {
    const { port } = source([3, 1, 4], [{ rating: 4, reviews: 2 }]);
    const stats = await readStats(port, NOW, 3);
    const seen: Array<{ active: number; waiting: number }> = [];
    const pictures = Array.from({ length: 8 }, () =>
      renderStats(stats, translatorFor('en-US'), { inProcess: true }).then((png) => {
        seen.push(statsDrawing());
        return png;
      }),
    );
    expect(statsDrawing()).toEqual({ active: STATS_DRAWN_AT_ONCE, waiting: 8 - STATS_DRAWN_AT_ONCE });
    const drawn = await Promise.all(pictures);
    expect(drawn.map((png) => pngSize(png).width)).toEqual(Array(8).fill(PICTURE_WIDTH));
    expect(Math.max(...seen.map((now) => now.active))).toBeLessThanOrEqual(STATS_DRAWN_AT_ONCE);
    expect(statsDrawing()).toEqual({ active: 0, waiting: 0 });
  });
});
