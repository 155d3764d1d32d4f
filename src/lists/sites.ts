// Every list the bot hears. Adding one: its file here and its line in ADAPTED (keyed by its id), its
// section in docs/lists.md, its sender in tools/list-senders/ and its tests (docs/development.md).
import { discadia } from './discadia.js';
import { discollab } from './discollab.js';
import { discordlistspace } from './discordlistspace.js';
import { discordplace } from './discordplace.js';
import { guilds } from './guilds.js';
import type { ListEvent, ListSite, SiteFacts } from './site.js';
import { topgg } from './topgg.js';

// The one list of sites: every other list of ids and every type of id is made from it.
// A file cannot type its ids from here (site.ts is below the site files): its interfaces take the id.
const ADAPTED = { topgg, discordplace, discadia, discordlistspace, discollab };

/** Sites whose deliveries this folder verifies and reads; Guilds' go through src/api/webhook-payloads.ts. */
export type AdaptedSiteId = keyof typeof ADAPTED;
export type SiteId = typeof guilds.id | AdaptedSiteId;

/** The sites whose deliveries this folder verifies and reads. */
export const LIST_SITES: Readonly<Record<AdaptedSiteId, ListSite<AdaptedSiteId>>> = ADAPTED;

export const SITE_FACTS: Readonly<Record<SiteId, SiteFacts<SiteId>>> = { guilds, ...LIST_SITES };

/** The lists' ids, in the registry's order. */
export const LIST_SITE_IDS = Object.keys(LIST_SITES) as AdaptedSiteId[];

/** Every site's id, Guilds first. */
export const SITE_IDS: readonly SiteId[] = [guilds.id, ...LIST_SITE_IDS];

export const isSiteId = (value: unknown): value is SiteId =>
  typeof value === 'string' && (SITE_IDS as readonly string[]).includes(value);

export const isAdaptedSiteId = (value: unknown): value is AdaptedSiteId => isSiteId(value) && value !== guilds.id;

/** The stored kind of a list's event, as the delivery log shows it: `topgg vote`, `discordplace test`. */
export const listEventKind = (event: Pick<ListEvent, 'site' | 'kind'>): string => `${event.site} ${event.kind}`;

/** The list a stored event's kind names (`topgg vote` → topgg), or undefined for a Guilds event (`vote`). */
export function siteOfEventKind(kind: string): AdaptedSiteId | undefined {
  const site = kind.split(' ', 1)[0];
  return kind.includes(' ') && isAdaptedSiteId(site) ? site : undefined;
}

/** A list's name as admins read it (`topgg` → Top.gg); undefined for what names no list. */
export const listName = (id: string): string | undefined => (isAdaptedSiteId(id) ? SITE_FACTS[id].name : undefined);

/** Single-server mode's setting for a list's secret: LISTING_TOPGG_SECRET. */
export const listingSecretVariable = <S extends AdaptedSiteId>(site: S) =>
  `LISTING_${site.toUpperCase() as Uppercase<S>}_SECRET` as const;

/** Single-server mode's vote length on a list whose votes do not say: LISTING_DISCADIA_VOTE_HOURS. */
export const listingVoteHoursVariable = <S extends AdaptedSiteId>(site: S) =>
  `LISTING_${site.toUpperCase() as Uppercase<S>}_VOTE_HOURS` as const;

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
