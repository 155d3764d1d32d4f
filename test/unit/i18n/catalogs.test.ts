import { describe, expect, it } from '@jest/globals';
import { data as review } from '../../../commands/review.js';
import { data as vote } from '../../../commands/vote.js';
import { data as votes } from '../../../commands/votes.js';
import { en, type Catalog } from '../../../src/i18n/catalogs/en.js';
import { CATALOGS, DISCORD_LOCALES } from '../../../src/i18n/locales.js';
import { localizations, translatorFor } from '../../../src/i18n/index.js';

/** What is wrong with a catalog next to English: missing or extra keys, placeholders that differ. */
function catalogProblems(catalog: Readonly<Record<string, string>>): string[] {
  // A plural's number counts as its placeholder: `{count, plural, one {# vote} other {# votes}}`.
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)(?:\}|, plural,)/g)].map((m) => m[1]).sort();
  const problems: string[] = [];
  for (const key of Object.keys(en)) {
    const text = catalog[key];
    if (text === undefined) problems.push(`missing ${key}`);
    else if (text.trim() === '') problems.push(`empty ${key}`);
    else if (placeholders(text).join() !== placeholders(en[key as keyof Catalog]).join()) {
      problems.push(`placeholders of ${key}`);
    }
  }
  for (const key of Object.keys(catalog)) if (!(key in en)) problems.push(`extra ${key}`);
  return problems;
}

// Discord's rule for command and option names (lowercase where the script has case).
const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

describe('the catalogs', () => {
  it.each(Object.entries(CATALOGS))('%s has every English key, with the same placeholders', (_, catalog) => {
    expect(catalogProblems(catalog)).toEqual([]);
  });

  it('would report a missing key, an extra key and a changed placeholder', () => {
    const broken: Record<string, string> = { ...en, 'vote.none.text': '{someone} has no vote.', 'x.y': 'z' };
    delete broken['votes.title'];
    expect(catalogProblems(broken)).toEqual(['placeholders of vote.none.text', 'missing votes.title', 'extra x.y']);
  });

  it.each(Object.entries(CATALOGS))('%s names commands and options as Discord allows', (_, catalog) => {
    for (const [key, text] of Object.entries(catalog)) {
      if (/^(command|option)\..*name$/.test(key)) {
        expect(text).toMatch(NAME);
        expect(text).toBe(text.toLowerCase());
      }
      if (/^(command|option)\..*description$/.test(key)) expect(text.length).toBeLessThanOrEqual(100);
    }
  });

  it('serves German, French, Spanish for Spain and Latin America, and Brazilian Portuguese', () => {
    expect(Object.keys(DISCORD_LOCALES).sort()).toEqual(['de', 'es-419', 'es-ES', 'fr', 'pt-BR']);
    expect(localizations('command.review.name')).toEqual({
      de: 'bewertung',
      fr: 'avis',
      'es-ES': 'reseña',
      'es-419': 'reseña',
      'pt-BR': 'avaliação',
    });
  });

  it('falls back to English for a locale without a catalog, and for none', () => {
    expect(translatorFor('ja').t('vote.button')).toBe('Vote now');
    expect(translatorFor(undefined).t('vote.button')).toBe('Vote now');
    expect(translatorFor('en-GB').language).toBe('en');
    expect(translatorFor('es-419').t('vote.button')).toBe('Votar ahora');
  });

  it("says 1 review, not 1 reviews, in every language, by the language's plural rules", () => {
    const reviews = (locale: string, count: number) =>
      translatorFor(locale).t('dashboard.reviews.count', { count }).split(/[,.]/)[0];
    expect([1, 2].map((n) => reviews('en-US', n))).toEqual([
      '1 review waiting for an answer',
      '2 reviews waiting for an answer',
    ]);
    expect([1, 2].map((n) => reviews('de', n))).toEqual([
      '1 Bewertung wartet auf eine Antwort',
      '2 Bewertungen warten auf eine Antwort',
    ]);
    expect([1, 2].map((n) => reviews('es-ES', n))).toEqual([
      '1 reseña espera respuesta',
      '2 reseñas esperan respuesta',
    ]);
    // French counts 0 with the singular, and Portuguese (Brazil) too.
    expect([0, 1, 2].map((n) => reviews('fr', n))).toEqual([
      '0 avis attend une réponse',
      '1 avis attend une réponse',
      '2 avis attendent une réponse',
    ]);
    expect([1, 2].map((n) => reviews('pt-BR', n))).toEqual([
      '1 avaliação espera resposta',
      '2 avaliações esperam resposta',
    ]);
    // Numbers past 999 are formatted for the language inside the plural, and a decimal takes the plural form.
    expect(translatorFor('de').t('leaderboard.votes', { count: 1200 })).toBe('1.200 Stimmen');
    expect(translatorFor('en-US').t('stats.ratingsSummary', { reviews: 1, average: 4.5 })).toBe(
      '1 review, 4.5 stars on average.',
    );
    expect(translatorFor('en-US').t('stats.ratingsSummary', { reviews: 3, average: 1 })).toBe(
      '3 reviews, 1 star on average.',
    );
  });

  it('fills placeholders and formats numbers for the language', () => {
    expect(translatorFor('de').t('votes.page', { page: 2, pages: 1200 })).toBe('Seite 2 von 1.200');
    expect(translatorFor('fr').number(1200).replace(/\s/u, ' ')).toBe('1 200');
  });

  it('formats every number as Intl does for the language, small whole ones included', () => {
    const samples = [0, 1, 7, 42, 999, 1_000, 12_345, 2.5, -3, 0.75];
    for (const [locale, language] of [...Object.entries(DISCORD_LOCALES), ['en-US', 'en']]) {
      const intl = new Intl.NumberFormat(language === 'en' ? 'en-US' : language);
      for (const value of samples) expect(translatorFor(locale).number(value)).toBe(intl.format(value));
    }
  });
});

describe('the commands', () => {
  it.each([vote, votes, review])('carry localized names and descriptions that the builders accept', (command) => {
    // Builder validation is on in tests: toJSON throws on a name or description Discord would refuse.
    const json = command.toJSON();
    expect(Object.keys(json.name_localizations ?? {}).sort()).toEqual(['de', 'es-419', 'es-ES', 'fr', 'pt-BR']);
    expect(Object.keys(json.description_localizations ?? {})).toHaveLength(5);
    for (const option of json.options ?? []) {
      expect(option.name_localizations?.de).toBeDefined();
      expect(option.description_localizations?.['pt-BR']).toBeDefined();
    }
  });
});
