import type { BaseContext } from '../runtime/context.js';
import { UserFacingError } from '../bot/user-error.js';
import type { Translator } from '../i18n/index.js';
import {
  isAdaptedSiteId,
  LISTING_VOTE_HOURS_MAX,
  listingAddress,
  listingSecretVariable,
  SITE_FACTS,
  type AdaptedSiteId,
  HOUR_MS,
  VOTE_API_SITE,
} from '../lists/index.js';
import { lastFour } from '../secrets/secret-box.js';
import type { ListingState } from '../servers/listings.js';
import type { ListingFacts, ShownApiToken, ShownSecret } from '../views/listing.js';
import { changeResult, type ChangeResult } from './change.js';

// What /setup listing and the dashboard's Lists page share about one list on one server.

/** Discadia reads no header: its secret is the address's last segment. */
export const withSecret = (address: string, site: AdaptedSiteId, secret: string) =>
  SITE_FACTS[site].auth === 'url-path' ? `${address}/${secret}` : address;

export function webhookOn(ctx: BaseContext): NonNullable<BaseContext['config']['webhook']> {
  const webhook = ctx.config.webhook;
  if (!webhook) throw new UserFacingError('refusal.webhookOff');
  return webhook;
}

/** In single-server mode the listings are .env's: the address is the one without the server id. */
export const single = (ctx: BaseContext) => ctx.servers.mode === 'single';

export function addressOf(ctx: BaseContext, guildId: string, site: AdaptedSiteId): string {
  return listingAddress(webhookOn(ctx), single(ctx) ? undefined : guildId, site);
}

export function noPublicUrl(ctx: BaseContext, i18n: Translator): { noPublicUrl?: string } {
  const missing = publicUrlMissing(ctx, i18n);
  return missing === undefined ? {} : { noPublicUrl: missing };
}

/** Without WEBHOOK_PUBLIC_URL an address is only its path: what to set for the whole one; undefined when set. */
export function publicUrlMissing(ctx: BaseContext, { t }: Translator): string | undefined {
  const webhook = webhookOn(ctx);
  return webhook.publicUrl ? undefined : t('setup.webhook.noPublicUrl', { path: webhook.path });
}

/** How long a vote on the listing runs, as /setup listing and /setup status show it. */
export function voteLengthText(listing: Pick<ListingState, 'site' | 'voteLengthMs'>, { t }: Translator): string {
  const siteLength = SITE_FACTS[listing.site].voteLength;
  if (siteLength === 'payload') return t('setup.listing.voteLengthFromSite');
  if (listing.voteLengthMs !== null) return t('setup.listing.voteLengthSet', { hours: listing.voteLengthMs / HOUR_MS });
  return t('setup.listing.voteLengthDefault', { hours: siteLength / HOUR_MS });
}

/**
 * `vote-hours:` as a length in ms, or undefined when left out. A site that sends each vote's length
 * (Top.gg, Discollab) has no setting: refused, nothing changed.
 */
export function voteHoursOf(hours: number | undefined, site: AdaptedSiteId): number | undefined {
  if (hours === undefined) return undefined;
  if (SITE_FACTS[site].voteLength === 'payload')
    throw new UserFacingError('refusal.listingVoteLengthFromSite', { site: SITE_FACTS[site].name });
  // Discord holds the option to its bounds; a forged interaction or form is not held to them.
  if (!Number.isInteger(hours) || hours < 1 || hours > LISTING_VOTE_HOURS_MAX)
    throw new UserFacingError('refusal.listingVoteHours', { max: LISTING_VOTE_HOURS_MAX });
  return hours * HOUR_MS;
}

/** Nothing is stored from Discord in single-server mode: the host sets LISTING_<SITE>_SECRET. */
export function environmentResult(ctx: BaseContext, guildId: string, site: AdaptedSiteId): ChangeResult {
  const vars = {
    site: SITE_FACTS[site].name,
    variable: listingSecretVariable(site),
    address: addressOf(ctx, guildId, site),
  };
  return changeResult('setup.listing.environment', () => vars, 'info');
}

export function siteOf(site: string): AdaptedSiteId {
  if (!isAdaptedSiteId(site)) throw new UserFacingError('refusal.listingUnknownSite');
  return site;
}

export const state = (ctx: BaseContext, guildId: string, site: AdaptedSiteId): ListingState | undefined =>
  ctx.servers.listings.of(guildId).find((listing) => listing.site === site);

/** What a kept listing's secret shows: its end, opened for this answer only. */
export function keptSecret(ctx: BaseContext, guildId: string, listing: ListingState): ShownSecret {
  if (listing.fromEnvironment) return { environment: listingSecretVariable(listing.site) };
  const secret = ctx.servers.listings.checkFor(guildId, listing.site)?.secret;
  return secret === undefined ? { none: true } : { end: lastFour(secret) };
}

/** What the views show of a site: its name, and who makes its secret. */
export const siteShown = (site: AdaptedSiteId) => ({
  site,
  name: SITE_FACTS[site].name,
  secretFromSite: SITE_FACTS[site].secretFrom === 'site',
});

/** Single-server mode's setting for Top.gg's API token. */
export const TOPGG_API_TOKEN_VARIABLE = 'LISTING_TOPGG_API_TOKEN';

/** Top.gg's API token as shown: its end (opened for this answer only) or the host's setting; other lists have none. */
export function keptApiToken(ctx: BaseContext, guildId: string, listing: ListingState): { apiToken?: ShownApiToken } {
  if (listing.site !== VOTE_API_SITE) return {};
  if (!listing.apiToken) return { apiToken: { none: true } };
  if (listing.fromEnvironment) return { apiToken: { environment: TOPGG_API_TOKEN_VARIABLE } };
  const token = ctx.servers.listings.topggToken(guildId);
  return { apiToken: token === undefined ? { none: true } : { end: lastFour(token) } };
}

export function factsOf(ctx: BaseContext, guildId: string, listing: ListingState, i18n: Translator): ListingFacts {
  const { site, lastDeliveryAt, lastTestAt } = listing;
  return {
    ...siteShown(site),
    address: addressOf(ctx, guildId, site),
    secret: keptSecret(ctx, guildId, listing),
    lastDeliveryAt,
    lastTestAt,
    voteLength: voteLengthText(listing, i18n),
    ...keptApiToken(ctx, guildId, listing),
  };
}
