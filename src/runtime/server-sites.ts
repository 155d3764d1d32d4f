import type { Servers } from '../servers/servers.js';
import { GUILDS_SITE, type VoteSite } from '../store/index.js';

/**
 * The lists a server is on: Guilds, which every server is, and its listings (/setup listing, or
 * LISTING_<SITE>_SECRET in single-server mode), read from the cache the receiver checks with: no store read.
 */
export function serverSites(servers: Pick<Servers, 'listings'>, guildId: string): VoteSite[] {
  return [GUILDS_SITE, ...servers.listings.sites(guildId)];
}
