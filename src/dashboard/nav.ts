import type { MessageKey } from '../i18n/index.js';
import { PAGES } from './pages/form.js';

/**
 * A server's pages, in the order the menu lists them: each a path under /servers/{guild id} and its
 * name in the catalogs. A page listed here must have its routes in routes/index.ts (checked by the
 * compiler); docs/development.md says what else a new page touches.
 */
export const SERVER_PAGES = [
  { id: 'overview', path: '', label: 'dashboard.nav.overview' },
  { id: 'channels', path: `/${PAGES.channels}`, label: 'dashboard.pages.channels.title' },
  { id: 'announcements', path: `/${PAGES.announcements}`, label: 'dashboard.pages.announce.title' },
  { id: 'rewards', path: `/${PAGES.rewards}`, label: 'dashboard.pages.rewards.title' },
  { id: 'reviews', path: `/${PAGES.reviews}`, label: 'dashboard.nav.reviews' },
  { id: 'listings', path: `/${PAGES.listings}`, label: 'dashboard.nav.listings' },
  { id: 'deliveries', path: `/${PAGES.deliveries}`, label: 'dashboard.nav.deliveries' },
  { id: 'stats', path: `/${PAGES.stats}`, label: 'dashboard.nav.stats' },
] as const satisfies ReadonlyArray<{ id: string; path: string; label: MessageKey }>;

export type ServerPageId = (typeof SERVER_PAGES)[number]['id'];

/** Kept here too for the menu's callers; the rule lives beside pagePath in pages/form.ts. */
export { serverPath } from './pages/form.js';
