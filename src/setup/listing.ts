import {
  MessageFlags,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { BaseContext } from '../runtime/context.js';
import { setupName } from '../bot/command-options.js';
import { UserFacingError } from '../bot/user-error.js';
import { translatorFor, type Translator } from '../i18n/index.js';
import {
  isAdaptedSiteId,
  LISTING_VOTE_HOURS_MAX,
  listingAddress,
  listingSecretVariable,
  SITE_FACTS,
  type AdaptedSiteId,
  HOUR_MS,
} from '../lists/index.js';
import { lastFour } from '../secrets/secret-box.js';
import type { ListingState } from '../servers/listings.js';
import { listingSecretModal, LISTING_SECRET_FIELD, readListingSecret } from '../views/listing-secret-modal.js';
import { listingsView, listingView, type ListingFacts, type ShownSecret } from '../views/listing.js';
import type { MessageView } from '../views/message.js';
import { changeAnswer, changed, changeResult, commandTarget } from './change.js';
import type { ChangeResult, ChangeTarget } from './change.js';
import { sealing } from './manage-server.js';
import { commandActor, type Actor } from '../bot/actor.js';

/** The single-server setting that holds a list's secret: LISTING_TOPGG_SECRET, … */

/** Discadia reads no header: its secret is the address's last segment. */
const withSecret = (address: string, site: AdaptedSiteId, secret: string) =>
  SITE_FACTS[site].auth === 'url-path' ? `${address}/${secret}` : address;

function webhookOn(ctx: BaseContext): NonNullable<BaseContext['config']['webhook']> {
  const webhook = ctx.config.webhook;
  if (!webhook) throw new UserFacingError('refusal.webhookOff');
  return webhook;
}

/** In single-server mode the listings are .env's: the address is the one without the server id. */
const single = (ctx: BaseContext) => ctx.servers.mode === 'single';

function addressOf(ctx: BaseContext, guildId: string, site: AdaptedSiteId): string {
  return listingAddress(webhookOn(ctx), single(ctx) ? undefined : guildId, site);
}

function noPublicUrl(ctx: BaseContext, i18n: Translator): { noPublicUrl?: string } {
  const missing = publicUrlMissing(ctx, i18n);
  return missing === undefined ? {} : { noPublicUrl: missing };
}

/** Without WEBHOOK_PUBLIC_URL an address is only its path: what to set for the whole one; undefined when set. */
export function publicUrlMissing(ctx: BaseContext, { t }: Translator): string | undefined {
  const webhook = webhookOn(ctx);
  return webhook.publicUrl ? undefined : t('setup.webhook.noPublicUrl', { path: webhook.path });
}

/** The single-server setting of a list's vote length: LISTING_DISCORDPLACE_VOTE_HOURS, … */
const voteHoursVariable = (site: AdaptedSiteId) => `LISTING_${site.toUpperCase()}_VOTE_HOURS`;

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
function voteHoursOf(hours: number | undefined, site: AdaptedSiteId): number | undefined {
  if (hours === undefined) return undefined;
  if (SITE_FACTS[site].voteLength === 'payload')
    throw new UserFacingError('refusal.listingVoteLengthFromSite', { site: SITE_FACTS[site].name });
  // Discord holds the option to its bounds; a forged interaction or form is not held to them.
  if (!Number.isInteger(hours) || hours < 1 || hours > LISTING_VOTE_HOURS_MAX)
    throw new UserFacingError('refusal.listingVoteHours', { max: LISTING_VOTE_HOURS_MAX });
  return hours * HOUR_MS;
}

/** Nothing is stored from Discord in single-server mode: the host sets LISTING_<SITE>_SECRET. */
function environmentResult(ctx: BaseContext, guildId: string, site: AdaptedSiteId): ChangeResult {
  const vars = {
    site: SITE_FACTS[site].name,
    variable: listingSecretVariable(site),
    address: addressOf(ctx, guildId, site),
  };
  return changeResult('setup.listing.environment', () => vars, 'info');
}

function siteOf(site: string): AdaptedSiteId {
  if (!isAdaptedSiteId(site)) throw new UserFacingError('refusal.listingUnknownSite');
  return site;
}

const state = (ctx: BaseContext, guildId: string, site: AdaptedSiteId): ListingState | undefined =>
  ctx.servers.listings.of(guildId).find((listing) => listing.site === site);

/** What a kept listing's secret shows: its end, opened for this answer only. */
function keptSecret(ctx: BaseContext, guildId: string, listing: ListingState): ShownSecret {
  if (listing.fromEnvironment) return { environment: listingSecretVariable(listing.site) };
  const secret = ctx.servers.listings.checkFor(guildId, listing.site)?.secret;
  return secret === undefined ? { none: true } : { end: lastFour(secret) };
}

/** What the views show of a site: its name, and who makes its secret. */
const siteShown = (site: AdaptedSiteId) => ({
  site,
  name: SITE_FACTS[site].name,
  secretFromSite: SITE_FACTS[site].secretFrom === 'site',
});

function factsOf(ctx: BaseContext, guildId: string, listing: ListingState, i18n: Translator): ListingFacts {
  const { site, lastDeliveryAt, lastTestAt } = listing;
  return {
    ...siteShown(site),
    address: addressOf(ctx, guildId, site),
    secret: keptSecret(ctx, guildId, listing),
    lastDeliveryAt,
    lastTestAt,
    voteLength: voteLengthText(listing, i18n),
  };
}

/** A list to add, a new secret for it (`rotate`), or its vote length (`voteHours`). */
export interface ListingAddInput extends ListingSiteInput {
  rotate?: boolean;
  voteHours?: number;
}

/** What a listing is after an add: the facts its answer or page shows. A whole secret is shown this once. */
export interface ListingShown {
  site: AdaptedSiteId;
  address: string;
  secret: ShownSecret;
  voteLengthMs: number | null;
  lastDeliveryAt: number | null;
  lastTestAt: number | null;
}

/**
 * `/setup listing add site: [rotate:] [vote-hours:]`: the server's address for the list and what to
 * paste where. A secret the bot makes is made now and shown whole this once; Top.gg's own is pasted
 * through the button's form. A listing already there is shown as it is unless `rotate:true` asks for a
 * new secret; `vote-hours:` on it changes only its vote length.
 */
export async function addListing(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const i18n = translatorFor(interaction.locale);
  const input = {
    site: interaction.options.getString(setupName('site'), true),
    rotate: interaction.options.getBoolean(setupName('rotate')) ?? undefined,
    voteHours: interaction.options.getInteger(setupName('voteHours')) ?? undefined,
  };
  const added = await applyListingAdd(ctx, commandTarget(interaction), input, commandActor(interaction));
  if ('environment' in added) return changeAnswer(added.environment, i18n);
  const { site, address, secret, voteLengthMs, lastDeliveryAt, lastTestAt } = added.listing;
  return listingView({
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
  if (single(ctx)) {
    if (voteLengthMs !== undefined)
      throw new UserFacingError('refusal.setByEnvironment', { variable: voteHoursVariable(site) });
    return { environment: await changed(ctx, target, actor, environmentResult(ctx, guildId, site)) };
  }
  const rotate = input.rotate ?? false;
  let kept = state(ctx, guildId, site);
  const address = addressOf(ctx, guildId, site);
  if (kept && !rotate) {
    if (voteLengthMs !== undefined) {
      await ctx.servers.listings.setVoteLength(guildId, site, voteLengthMs);
      ctx.logger.info({ guildId, userId: actor.userId, site, voteLengthMs }, 'listing vote length set');
      kept = state(ctx, guildId, site) ?? kept;
      const vars = (i18n: Translator) => ({ site: SITE_FACTS[site].name, length: voteLengthText(kept!, i18n) });
      await changed(ctx, target, actor, changeResult('audit.dashboard.voteLength', vars));
    }
    const { lastDeliveryAt, lastTestAt } = kept;
    const secret = keptSecret(ctx, guildId, kept);
    return { listing: { site, address, secret, voteLengthMs: kept.voteLengthMs, lastDeliveryAt, lastTestAt } };
  }
  const fresh = { lastDeliveryAt: null, lastTestAt: null };
  if (SITE_FACTS[site].secretFrom === 'site')
    return { listing: { site, address, secret: { none: true }, voteLengthMs: null, ...fresh } };
  if (!ctx.config.secrets) throw new UserFacingError('refusal.secretsKeyMissing');
  const secret = await sealing(() => ctx.servers.listings.add(guildId, site, undefined, voteLengthMs));
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

/** The "Paste the secret" button: the form, unless the secret cannot be kept. */
export async function openListingSecret(
  interaction: ButtonInteraction,
  site: AdaptedSiteId,
  ctx: BaseContext,
): Promise<void> {
  webhookOn(ctx);
  if (single(ctx)) throw new UserFacingError('refusal.setByEnvironment', { variable: listingSecretVariable(site) });
  if (!ctx.config.secrets) throw new UserFacingError('refusal.secretsKeyMissing');
  await interaction.showModal(
    listingSecretModal({ id: site, name: SITE_FACTS[site].name }, translatorFor(interaction.locale)),
  );
}

/** The form sent back: the list's secret sealed; the answer shows only its end. */
export async function saveListingSecret(
  interaction: ModalSubmitInteraction,
  site: AdaptedSiteId,
  ctx: BaseContext,
): Promise<void> {
  let typed: unknown;
  try {
    typed = interaction.fields.getTextInputValue(LISTING_SECRET_FIELD);
  } catch {
    // A forged submit may leave the field out: refused like an empty one.
  }
  const input = { site, secret: typed };
  // Refused before the deferral, at once, as the answer to the form.
  secretFrom(ctx, input);
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const result = await applyListingSecret(ctx, commandTarget(interaction), input, commandActor(interaction));
  await interaction.editReply(changeAnswer(result, translatorFor(interaction.locale)));
}

/** A secret a list made (Top.gg's), pasted: checked here whoever sends it. */
export interface ListingSecretInput extends ListingSiteInput {
  secret: unknown;
}

export async function applyListingSecret(
  ctx: BaseContext,
  target: ChangeTarget,
  input: ListingSecretInput,
  actor: Actor,
): Promise<ChangeResult> {
  const { guildId } = target;
  const { site, secret } = secretFrom(ctx, input);
  await sealing(() => ctx.servers.listings.add(guildId, site, secret));
  ctx.logger.info({ guildId, userId: actor.userId, site }, 'listing secret saved with /setup');
  const vars = { site: SITE_FACTS[site].name, last4: lastFour(secret), address: addressOf(ctx, guildId, site) };
  return changed(
    ctx,
    target,
    actor,
    changeResult('setup.listing.saved', () => vars),
  );
}

function secretFrom(ctx: BaseContext, input: ListingSecretInput): { site: AdaptedSiteId; secret: string } {
  const site = siteOf(input.site);
  webhookOn(ctx);
  if (single(ctx)) throw new UserFacingError('refusal.setByEnvironment', { variable: listingSecretVariable(site) });
  const secret = readListingSecret(input.secret);
  if (!secret) throw new UserFacingError('refusal.listingSecretBad', { site: SITE_FACTS[site].name });
  return { site, secret };
}

export interface ListingSiteInput {
  /** An `AdaptedSiteId`; anything else is refused. */
  site: string;
}

/** `/setup listing remove site:` */
export async function removeListing(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const input = { site: interaction.options.getString(setupName('site'), true) };
  const result = await applyListingRemove(ctx, commandTarget(interaction), input, commandActor(interaction));
  return changeAnswer(result, translatorFor(interaction.locale));
}

export async function applyListingRemove(
  ctx: BaseContext,
  target: ChangeTarget,
  input: ListingSiteInput,
  actor: Actor,
): Promise<ChangeResult> {
  const { guildId } = target;
  const site = siteOf(input.site);
  webhookOn(ctx);
  if (single(ctx)) return changed(ctx, target, actor, environmentResult(ctx, guildId, site));
  const removed = await ctx.servers.listings.remove(guildId, site);
  const vars = () => ({ site: SITE_FACTS[site].name, command: '`/setup listing add`' });
  if (!removed) return changed(ctx, target, actor, changeResult('setup.listing.notListed', vars, 'info'));
  ctx.logger.info({ guildId, userId: actor.userId, site }, 'listing removed with /setup');
  return changed(ctx, target, actor, changeResult('setup.listing.removed', vars));
}

/** Every list set up for the server, as `/setup listing list` shows them (each secret by its end). */
/** The server's lists set by LISTING_<SITE>_SECRET (single-server mode): their fixes name the setting. */
export function environmentSites(ctx: BaseContext, guildId: string): Set<string> {
  return new Set(
    ctx.servers.listings
      .of(guildId)
      .filter((l) => l.fromEnvironment)
      .map((l) => l.site),
  );
}

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
export async function listListings(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const guildId = interaction.guildId!;
  const i18n = translatorFor(interaction.locale);
  return listingsView(listingsFacts(ctx, guildId, i18n), i18n);
}
