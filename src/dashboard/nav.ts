import type { MessageKey } from '../i18n/index.js';

/**
 * A server's pages, in the order the menu lists them: each a path under /servers/{guild id} and its
 * name in the catalogs. A new page is added here and nowhere else for it to be in every menu.
 */
export const SERVER_PAGES = [
  { id: 'overview', path: '', label: 'dashboard.nav.overview' },
  { id: 'reviews', path: '/reviews', label: 'dashboard.nav.reviews' },
  { id: 'listings', path: '/listings', label: 'dashboard.nav.listings' },
  { id: 'deliveries', path: '/deliveries', label: 'dashboard.nav.deliveries' },
  { id: 'stats', path: '/stats', label: 'dashboard.nav.stats' },
] as const satisfies ReadonlyArray<{ id: string; path: string; label: MessageKey }>;

export type ServerPageId = (typeof SERVER_PAGES)[number]['id'];

export const serverPath = (guildId: string, path = ''): string => `/servers/${guildId}${path}`;
