import { en, type MessageKey } from './catalogs/en.js';
import { CATALOGS, DISCORD_LOCALES, type LocalizedDiscordLocale } from './locales.js';

export type { MessageKey } from './catalogs/en.js';
export type Vars = Readonly<Record<string, string | number>>;

/** Texts and numbers in one member's language. */
export interface Translator {
  /** The catalog's language tag, e.g. `de` or `en`. */
  readonly language: string;
  /** The text for `key` with each `{name}` replaced; numbers in `vars` are formatted for the language. */
  t(key: MessageKey, vars?: Vars): string;
  /** `12,345` in English, `12.345` in German. */
  number(value: number): string;
  /** `November 2026` in English, `novembre 2026` in French: a calendar month (1 to 12) in UTC. */
  monthName(year: number, month: number): string;
  /** `Nov 24` in English, `24.11.` in German: a UTC day, short, for chart labels and lists. */
  dayName(at: number): string;
}

const PLACEHOLDER = /\{(\w+)\}/g;
/**
 * `{count, plural, one {# review} other {# reviews}}`: the form Intl.PluralRules picks for the
 * number in the language (French says "0 avis" with `one`; Spanish and French have `many` for
 * millions), `#` the number formatted; `other` when the language's form is not written.
 */
const PLURAL = /\{(\w+), plural,((?:\s*(?:zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
const PLURAL_FORM = /(zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;
const translators = new Map<string, Translator>();

/** The translator for a Discord locale (`interaction.locale`); English for any locale without a catalog. */
export function translatorFor(discordLocale: string | null | undefined): Translator {
  const language = DISCORD_LOCALES[discordLocale as LocalizedDiscordLocale] ?? 'en';
  let translator = translators.get(language);
  if (!translator) {
    translator = createTranslator(language);
    translators.set(language, translator);
  }
  return translator;
}

/** English, for logs and for posts that answer no member in particular. */
export const english = translatorFor('en-US');

function createTranslator(language: string): Translator {
  const catalog = CATALOGS[language] ?? en;
  const tag = language === 'en' ? 'en-US' : language;
  // Made on first use: the first Intl formatter reads ICU's locale data, ~8 MB of RSS that a bot
  // answering /vote (whole numbers under 1,000 only) never needs.
  const numbers = once(() => new Intl.NumberFormat(tag));
  const months = once(() => new Intl.DateTimeFormat(tag, { month: 'long', year: 'numeric', timeZone: 'UTC' }));
  const days = once(() => new Intl.DateTimeFormat(tag, { month: 'short', day: 'numeric', timeZone: 'UTC' }));
  const plurals = once(() => new Intl.PluralRules(tag));
  // Whole numbers under 1,000 read the same in every catalog's language (no grouping, Latin digits);
  // durations and page numbers on every /vote are such, and Intl's format showed in its profile.
  const number = (value: number) =>
    Number.isInteger(value) && value >= 0 && value < 1_000 ? String(value) : numbers().format(value);
  return {
    language,
    number,
    monthName: (year, month) => months().format(Date.UTC(year, month - 1, 1)),
    dayName: (at) => days().format(at),
    t(key, vars) {
      const text = catalog[key] ?? en[key];
      if (!vars) return text;
      const counted = text.replace(PLURAL, (whole, name: string, options: string) => {
        const value = vars[name];
        if (value === undefined) return whole;
        // A number given as text (already formatted) picks its form by its value, shown as given.
        const count = typeof value === 'number' ? value : Number(value);
        const forms = new Map([...options.matchAll(PLURAL_FORM)].map((m) => [m[1]!, m[2]!]));
        const form =
          (Number.isFinite(count) ? forms.get(plurals().select(count)) : undefined) ?? forms.get('other') ?? '';
        return form.replaceAll('#', typeof value === 'number' ? number(value) : value);
      });
      return counted.replace(PLACEHOLDER, (whole, name: string) => {
        const value = vars[name];
        if (value === undefined) return whole;
        return typeof value === 'number' ? number(value) : value;
      });
    },
  };
}

function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** A command's or option's name or description in every language with a catalog, for the builders. */
export function localizations(key: MessageKey): Partial<Record<LocalizedDiscordLocale, string>> {
  const entries = Object.entries(DISCORD_LOCALES).map(([locale, language]) => [locale, CATALOGS[language]![key]]);
  return Object.fromEntries(entries) as Partial<Record<LocalizedDiscordLocale, string>>;
}

/** A notice's key: the catalog has `<key>.title` and `<key>.text`. */
export type NoticeKey = {
  [K in MessageKey]: K extends `${infer P}.title` ? (`${P}.text` extends MessageKey ? P : never) : never;
}[MessageKey];
