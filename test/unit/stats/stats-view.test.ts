import { describe, expect, it } from '@jest/globals';
import { translatorFor } from '../../../src/i18n/index.js';
import { DAY_MS, type StatsData } from '../../../src/stats/stats-data.js';
import { statsView } from '../../../src/stats/stats-view.js';

const DAY = Date.UTC(2026, 10, 22);
const data: StatsData = {
  days: [DAY, DAY + DAY_MS, DAY + 2 * DAY_MS],
  votes: [4, 0, 1],
  ratings: [0, 0, 0, 0, 1, 1],
  reviews: 2,
  averageRating: 4.5,
};
const since = new Date(Date.UTC(2026, 0, 1));

describe('the /stats answer', () => {
  it('attaches the picture with its alt text and lists every number it shows', () => {
    const view = statsView({ data, png: Buffer.from('png'), countingSince: since, i18n: translatorFor('en-US') });
    const embed = view.embeds[0]!.toJSON();
    expect(embed.image?.url).toBe('attachment://stats.png');
    expect(view.files).toEqual([
      {
        attachment: Buffer.from('png'),
        name: 'stats.png',
        description: expect.stringMatching(/^Bar charts: 5 votes over the last 3 days, and 2 reviews by rating\./),
      },
    ]);
    expect(embed.description).toContain('Nov 22: 4\nNov 23: 0\nNov 24: 1\n');
    expect(embed.description).toContain('5 votes in 3 days, 1.7 a day on average.');
    expect(embed.fields?.[0]?.value).toBe('5 ★: 1\n4 ★: 1\n3 ★: 0\n2 ★: 0\n1 ★: 0\n2 reviews, 4.5 stars on average.');
    expect(view.allowedMentions).toEqual({ parse: [] });
  });

  it('says when the picture could not be drawn, and still gives every number', () => {
    const view = statsView({ data, png: null, countingSince: since, i18n: translatorFor('fr') });
    const embed = view.embeds[0]!.toJSON();
    expect(view.files).toEqual([]);
    expect(embed.image).toBeUndefined();
    expect(embed.description).toMatch(/^\*\*L’image n’a pas pu être dessinée cette fois/);
    expect(embed.description).toContain('22 nov. : 4');
    expect(embed.fields?.[0]?.value).toContain('2 avis, 4,5 étoiles en moyenne.');
  });

  it('says so when no review has been seen', () => {
    const none = { ...data, ratings: [0, 0, 0, 0, 0, 0], reviews: 0, averageRating: null };
    const view = statsView({ data: none, png: null, countingSince: since, i18n: translatorFor('en-US') });
    expect(view.embeds[0]!.toJSON().fields?.[0]?.value).toBe('No review seen yet.');
  });
});
