import { describe, expect, it } from '@jest/globals';
import { data } from '../../../commands/stats.js';
import { STATS_DEFAULT_DAYS, STATS_MAX_DAYS } from '../../../src/stats/stats-data.js';

describe('the /stats command as Discord registers it', () => {
  it('takes days from 1 to the limit, its default written into every language from the one constant', () => {
    const json = data.toJSON();
    expect(json.name).toBe('stats');
    const days = json.options?.find((option) => option.name === 'days') as
      { min_value?: number; max_value?: number; description: string; description_localizations?: object } | undefined;
    expect(days).toMatchObject({ min_value: 1, max_value: STATS_MAX_DAYS });
    expect(days?.description).toBe(`How many days back to show (default: ${STATS_DEFAULT_DAYS})`);
    expect(days?.description_localizations).toMatchObject({
      de: `Wie viele Tage zurück gezeigt werden (Standard: ${STATS_DEFAULT_DAYS})`,
      fr: `Combien de jours en arrière afficher (par défaut : ${STATS_DEFAULT_DAYS})`,
    });
    expect(JSON.stringify(json)).not.toContain('{days}');
  });
});
