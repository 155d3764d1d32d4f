// Every list the bot hears. Adding one: its file here, a line in each table below, its section in
// docs/lists.md, its sender in tools/list-senders/ and its tests.
import { discadia } from './discadia.js';
import { discollab } from './discollab.js';
import { discordlistspace } from './discordlistspace.js';
import { discordplace } from './discordplace.js';
import { guilds } from './guilds.js';
import { SITE_IDS, type AdaptedSiteId, type ListSite, type SiteFacts, type SiteId } from './site.js';
import { topgg } from './topgg.js';

/** The sites whose deliveries this folder verifies and reads. */
export const LIST_SITES: Readonly<Record<AdaptedSiteId, ListSite>> = {
  topgg,
  discordplace,
  discadia,
  discordlistspace,
  discollab,
};

export const SITE_FACTS: Readonly<Record<SiteId, SiteFacts>> = { guilds, ...LIST_SITES };

export const isSiteId = (value: unknown): value is SiteId =>
  typeof value === 'string' && (SITE_IDS as readonly string[]).includes(value);

export const isAdaptedSiteId = (value: unknown): value is AdaptedSiteId => isSiteId(value) && value !== 'guilds';

/** Single-server mode's setting for a list's secret: LISTING_TOPGG_SECRET. */
export const listingSecretVariable = (site: AdaptedSiteId): string => `LISTING_${site.toUpperCase()}_SECRET`;
