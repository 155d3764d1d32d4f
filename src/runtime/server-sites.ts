import type { Listings } from '../servers/listings.js';
import { GUILDS_SITE, type VoteSite } from '../store/index.js';

/**
 * The lists a server is on: Guilds, which every server is, and its listings (/setup listing, or
 * LISTING_<SITE>_SECRET in single-server mode), read from the cache the receiver checks with: no store read.
 */
export function serverSites(servers: { listings: Pick<Listings, 'sites'> }, guildId: string): VoteSite[] {
  return [GUILDS_SITE, ...servers.listings.sites(guildId)];
}
