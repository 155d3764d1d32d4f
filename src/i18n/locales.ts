import { de } from './catalogs/de.js';
import { en, type Catalog } from './catalogs/en.js';
import { es } from './catalogs/es.js';
import { fr } from './catalogs/fr.js';
import { ptBR } from './catalogs/pt-BR.js';

/** The catalogs, by the language tag numbers are formatted in. English is the fallback. */
export const CATALOGS: Readonly<Record<string, Catalog>> = { en, de, fr, es, 'pt-BR': ptBR };

/**
 * Discord's locale codes, each with the catalog that answers it. Spanish serves Spain and Latin
 * America alike; codes not listed (and both English variants) get English.
 */
export const DISCORD_LOCALES = {
  de: 'de',
  fr: 'fr',
  'es-ES': 'es',
  'es-419': 'es',
  'pt-BR': 'pt-BR',
} as const satisfies Record<string, keyof typeof CATALOGS>;

export type LocalizedDiscordLocale = keyof typeof DISCORD_LOCALES;
