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

/** A list's name as admins read it (`topgg` → Top.gg); undefined for what names no list. */
export const listName = (id: string): string | undefined => (isAdaptedSiteId(id) ? SITE_FACTS[id].name : undefined);

/** Single-server mode's setting for a list's secret: LISTING_TOPGG_SECRET. */
export const listingSecretVariable = (site: AdaptedSiteId): string => `LISTING_${site.toUpperCase()}_SECRET`;

/**
 * Where `site` sends this server's votes: `<WEBHOOK_PUBLIC_URL><WEBHOOK_PATH>/<server id>/<site id>`
 * (one server from .env: no server id); only the path when WEBHOOK_PUBLIC_URL is not set.
 */
export function listingAddress(
  webhook: { publicUrl: string | undefined; path: string },
  guildId: string | undefined,
  site: AdaptedSiteId,
): string {
  const root = `${(webhook.publicUrl ?? '').replace(/\/+$/, '')}${webhook.path.replace(/\/+$/, '')}`;
  return guildId === undefined ? `${root}/${site}` : `${root}/${guildId}/${site}`;
}
