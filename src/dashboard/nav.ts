import type { MessageKey } from '../i18n/index.js';

/**
 * A server's pages, in the order the menu lists them: each a path under /servers/{guild id} and its
 * name in the catalogs. A new page is added here and nowhere else for it to be in every menu.
 */
export const SERVER_PAGES = [
  { id: 'overview', path: '', label: 'dashboard.nav.overview' },
  { id: 'reviews', path: '/reviews', label: 'dashboard.nav.reviews' },
] as const satisfies ReadonlyArray<{ id: string; path: string; label: MessageKey }>;

export type ServerPageId = (typeof SERVER_PAGES)[number]['id'];

/**
 * The one rule for a server's addresses, `/servers/{guild id}{path}`: the id is a snowflake, encoded
 * all the same so it can never leave its path segment.
 */
export const serverPath = (guildId: string, path = ''): string => `/servers/${encodeURIComponent(guildId)}${path}`;
