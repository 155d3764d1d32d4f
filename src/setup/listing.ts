import type { BaseContext } from '../runtime/context.js';
import { UserFacingError } from '../bot/user-error.js';
import type { Translator } from '../i18n/index.js';
import { listingSecretVariable, listingVoteHoursVariable, SITE_FACTS, type AdaptedSiteId } from '../lists/index.js';
import { lastFour } from '../secrets/secret-box.js';
import {
  listingsView,
  listingView,
  type ListingFacts,
  type ShownApiToken,
  type ShownSecret,
} from '../views/listing.js';
import { applyListingApiToken } from './listing-api-token.js';
import type { MessageView } from '../views/message.js';
import {
  changeAnswer,
  changed,
  changeResult,
  type ChangeResult,
  type ChangeTarget,
  type ApplyChange,
} from './change.js';
import { sealing } from './manage-server.js';
import type { Actor } from '../bot/actor.js';
import type { SetupCall } from './steps.js';
import {
  addressOf,
  environmentResult,
  factsOf,
  keptApiToken,
  keptSecret,
  noPublicUrl,
  single,
  siteOf,
  siteShown,
  state,
  voteHoursOf,
  voteLengthText,
  webhookOn,
  withSecret,
} from './listing-facts.js';

/** A list to add, a new secret for it (`rotate`), its vote length (`voteHours`), or Top.gg's API token. */
export interface ListingAddInput extends ListingSiteInput {
  rotate?: boolean;
  voteHours?: number;
  apiToken?: string;
}

/** What a listing is after an add: the facts its answer or page shows. A whole secret is shown this once. */
export interface ListingShown {
  site: AdaptedSiteId;
  address: string;
  secret: ShownSecret;
  voteLengthMs: number | null;
  lastDeliveryAt: number | null;
  lastTestAt: number | null;
  apiToken?: ShownApiToken;
}

/**
 * `/setup listing add site: [rotate:] [vote-hours:]`: the server's address for the list and what to
 * paste where. A secret the bot makes is made now and shown whole this once; Top.gg's own is pasted
 * through the button's form. A listing already there is shown as it is unless `rotate:true` asks for a
 * new secret; `vote-hours:` on it changes only its vote length.
 */
export async function listingAddAnswer(
  ctx: BaseContext,
  input: ListingAddInput,
  { target, actor, i18n }: SetupCall,
): Promise<MessageView> {
  const added = await applyListingAdd(ctx, target, input, actor);
  if ('environment' in added) return changeAnswer(added.environment, i18n);
  const { site, address, secret, voteLengthMs, lastDeliveryAt, lastTestAt, apiToken } = added.listing;
  return listingView({
    ...(apiToken === undefined ? {} : { apiToken }),
    ...siteShown(site),
    steps: i18n.t(`setup.listing.steps.${site}`),
    i18n,
    ...noPublicUrl(ctx, i18n),
    address,
    secret,
    lastDeliveryAt,
    lastTestAt,
    voteLength: voteLengthText({ site, voteLengthMs }, i18n),
  });
}

export async function applyListingAdd(
  ctx: BaseContext,
  target: ChangeTarget,
  input: ListingAddInput,
  actor: Actor,
): Promise<{ environment: ChangeResult } | { listing: ListingShown }> {
  const { guildId } = target;
  const site = siteOf(input.site);
  const voteLengthMs = voteHoursOf(input.voteHours, site);
  webhookOn(ctx);
  if (input.apiToken !== undefined) await applyListingApiToken(ctx, target, site, input.apiToken, actor);
  if (single(ctx)) {
    if (voteLengthMs !== undefined)
      throw new UserFacingError('refusal.setByEnvironment', { variable: listingVoteHoursVariable(site) });
    return { environment: await changed(ctx, target, actor, environmentResult(ctx, guildId, site)) };
  }
  const rotate = input.rotate ?? false;
  let kept = state(ctx, guildId, site);
  const address = addressOf(ctx, guildId, site);
  if (kept && !rotate) {
    if (voteLengthMs !== undefined) {
      await ctx.setup.changes.listings.setVoteLength(guildId, site, voteLengthMs);
      ctx.logger.info({ guildId, userId: actor.userId, site, voteLengthMs }, 'listing vote length set');
      kept = state(ctx, guildId, site) ?? kept;
      const vars = (i18n: Translator) => ({ site: SITE_FACTS[site].name, length: voteLengthText(kept!, i18n) });
      await changed(ctx, target, actor, changeResult('audit.dashboard.voteLength', vars));
    }
    const { lastDeliveryAt, lastTestAt } = kept;
    const secret = keptSecret(ctx, guildId, kept);
    const shown = { site, address, secret, voteLengthMs: kept.voteLengthMs, lastDeliveryAt, lastTestAt };
    return { listing: { ...shown, ...keptApiToken(ctx, guildId, kept) } };
  }
  const fresh = { lastDeliveryAt: null, lastTestAt: null };
  if (SITE_FACTS[site].secretFrom === 'site')
    return { listing: { site, address, secret: { none: true }, voteLengthMs: null, ...fresh } };
  if (!ctx.config.secrets) throw new UserFacingError('refusal.secretsKeyMissing');
  const secret = await sealing(() => ctx.setup.changes.listings.add(guildId, site, undefined, voteLengthMs));
  ctx.logger.info({ guildId, userId: actor.userId, site, rotate, voteLengthMs }, 'listing secret made with /setup');
  const made = state(ctx, guildId, site);
  // The audit line names the secret by its end only, and the address without it.
  const vars = { site: SITE_FACTS[site].name, last4: lastFour(secret), address };
  await changed(
    ctx,
    target,
    actor,
    changeResult('setup.listing.saved', () => vars),
  );
  return {
    listing: {
      site,
      address: withSecret(address, site, secret),
      secret: { whole: secret },
      voteLengthMs: made?.voteLengthMs ?? null,
      ...fresh,
    },
  };
}

export interface ListingSiteInput {
  /** An `AdaptedSiteId`; anything else is refused. */
  site: string;
}

/** `/setup listing remove site:` */
export const applyListingRemove: ApplyChange<ListingSiteInput> = async (ctx, target, input, actor) => {
  const { guildId } = target;
  const site = siteOf(input.site);
  webhookOn(ctx);
  if (single(ctx)) return changed(ctx, target, actor, environmentResult(ctx, guildId, site));
  const removed = await ctx.setup.changes.listings.remove(guildId, site);
  const vars = () => ({ site: SITE_FACTS[site].name, command: '`/setup listing add`' });
  if (!removed) return changed(ctx, target, actor, changeResult('setup.listing.notListed', vars, 'info'));
  ctx.logger.info({ guildId, userId: actor.userId, site }, 'listing removed with /setup');
  return changed(ctx, target, actor, changeResult('setup.listing.removed', vars));
};

/** The server's lists set by LISTING_<SITE>_SECRET (single-server mode): their fixes name the setting. */
export function environmentSites(ctx: BaseContext, guildId: string): Set<string> {
  return new Set(
    ctx.servers.listings
      .of(guildId)
      .filter((l) => l.fromEnvironment)
      .map((l) => l.site),
  );
}

/** Every list set up for the server, as `/setup listing list` shows them (each secret by its end). */
export function listingsFacts(ctx: BaseContext, guildId: string, i18n: Translator): ListingFacts[] {
  webhookOn(ctx);
  return ctx.servers.listings.of(guildId).map((listing) => factsOf(ctx, guildId, listing, i18n));
}

/**
 * A list's whole secret, for the one member who asked to see it; undefined when none is kept. One the
 * host set (LISTING_<SITE>_SECRET) is refused: it is the host's, like its WEBHOOK_TOKEN.
 */
export function listingSecret(ctx: BaseContext, guildId: string, site: string): string | undefined {
  const listed = siteOf(site);
  if (state(ctx, guildId, listed)?.fromEnvironment)
    throw new UserFacingError('refusal.setByEnvironment', { variable: listingSecretVariable(listed) });
  return ctx.servers.listings.checkFor(guildId, listed)?.secret;
}

/** `/setup listing list` */
export function listingsAnswer(ctx: BaseContext, { target, i18n }: SetupCall): MessageView {
  return listingsView(listingsFacts(ctx, target.guildId, i18n), i18n);
}
