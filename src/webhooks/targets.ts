import { isSnowflake } from '../api/index.js';
import { isAdaptedSiteId, LIST_SITES, type AdaptedSiteId } from '../lists/index.js';
import type { ListingTarget } from './list-delivery.js';
import type { WebhookTargets } from './deliveries.js';

export interface TargetOptions {
  /** WEBHOOK_PATH, e.g. /webhook. */
  path: string;
  /** A server's own token (opened for the check), if it has one; read from the store when it is shared. */
  serverToken: (guildId: string) => string | undefined | Promise<string | undefined>;
  /** A server's listing on a list besides Guilds: its secret, opened for the check; undefined when it has none. */
  listing?: (
    guildId: string,
    site: AdaptedSiteId,
  ) =>
    | { secret: string; voteLengthMs?: number }
    | undefined
    | Promise<{ secret: string; voteLengthMs?: number } | undefined>;
  /** Single-server mode: the plain path is this server's, with WEBHOOK_TOKEN. */
  single?: { guildId: string; token: string | undefined };
}

/**
 * `<path>/<server id>` for every server; in single-server mode also `<path>`, as an existing install set it on Guilds.
 * A list besides Guilds: `<path>/<server id>/<site id>` (Discadia: `…/discadia/<secret>`), and in
 * single-server mode `<path>/<site id>` too.
 */
export function webhookTargets({ path, serverToken, listing, single }: TargetOptions): WebhookTargets {
  const base = path.endsWith('/') ? path.slice(0, -1) : path;
  return {
    serverFor(pathname) {
      if (single && pathname === path) return single.guildId;
      if (!pathname.startsWith(`${base}/`)) return undefined;
      const id = pathname.slice(base.length + 1);
      return isSnowflake(id) ? id : undefined;
    },
    async tokenFor(guildId, pathname) {
      if (single && pathname === path) return single.token;
      return (await serverToken(guildId)) ?? (single?.guildId === guildId ? single.token : undefined);
    },
    listingFor(pathname) {
      if (!pathname.startsWith(`${base}/`)) return undefined;
      const parts = pathname.slice(base.length + 1).split('/');
      const guildId = isSnowflake(parts[0]) ? parts.shift()! : single?.guildId;
      return guildId === undefined ? undefined : listingTarget(guildId, parts);
    },
    listingCheck: async (guildId, site) => (listing ? await listing(guildId, site) : undefined),
  };
}

/** `<site id>`, or for a site whose secret is in the address `<site id>/<secret>`; anything else is no address. */
function listingTarget(guildId: string, [site, secret, ...rest]: string[]): ListingTarget | undefined {
  if (!isAdaptedSiteId(site) || rest.length > 0) return undefined;
  const inPath = LIST_SITES[site].auth === 'url-path';
  if (!inPath) return secret === undefined ? { guildId, site } : undefined;
  // The secret's segment may be missing or empty: verify() then refuses it as a missing secret (401).
  return { guildId, site, pathSecret: secret === undefined ? '' : decodeSegment(secret) };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
