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
import { isAdaptedSiteId, SITE_FACTS, type AdaptedSiteId } from '../lists/index.js';
import { lastFour } from '../secrets/secret-box.js';
import type { ListingState } from '../servers/listings.js';
import { listingSecretModal, LISTING_SECRET_FIELD, readListingSecret } from '../views/listing-secret-modal.js';
import { listingsView, listingView, type ListingFacts, type ShownSecret } from '../views/listing.js';
import type { MessageView } from '../views/message.js';
import { setupAnswer } from './answer.js';
import { sealing } from './manage-server.js';

/** The longest vote length a listing may set (a week), in hours; the shortest is 1. */
export const LISTING_VOTE_HOURS_MAX = 168;
const HOUR_MS = 3_600_000;

/** The single-server setting that holds a list's secret: LISTING_TOPGG_SECRET, … */
export const listingVariable = (site: AdaptedSiteId) => `LISTING_${site.toUpperCase()}_SECRET`;

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

function noPublicUrl(ctx: BaseContext, { t }: Translator): { noPublicUrl?: string } {
  const webhook = webhookOn(ctx);
  return webhook.publicUrl ? {} : { noPublicUrl: t('setup.webhook.noPublicUrl', { path: webhook.path }) };
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
function voteHoursOption(interaction: ChatInputCommandInteraction, site: AdaptedSiteId): number | undefined {
  const hours = interaction.options.getInteger(setupName('voteHours'));
  if (hours === null) return undefined;
  if (SITE_FACTS[site].voteLength === 'payload')
    throw new UserFacingError('refusal.listingVoteLengthFromSite', { site: SITE_FACTS[site].name });
  return hours * HOUR_MS;
}

/** Nothing is stored from Discord in single-server mode: the host sets LISTING_<SITE>_SECRET. */
function environmentAnswer(ctx: BaseContext, guildId: string, site: AdaptedSiteId, i18n: Translator): MessageView {
  const vars = { site: SITE_FACTS[site].name, variable: listingVariable(site), address: addressOf(ctx, guildId, site) };
  return setupAnswer('setup.listing.environment', vars, i18n, 'info');
}

function siteOption(interaction: ChatInputCommandInteraction): AdaptedSiteId {
  const site = interaction.options.getString(setupName('site'), true);
  if (!isAdaptedSiteId(site)) throw new UserFacingError('refusal.listingUnknownSite');
  return site;
}

const state = (ctx: BaseContext, guildId: string, site: AdaptedSiteId): ListingState | undefined =>
  ctx.servers.listings.of(guildId).find((listing) => listing.site === site);

/** What a kept listing's secret shows: its end, opened for this answer only. */
function keptSecret(ctx: BaseContext, guildId: string, listing: ListingState): ShownSecret {
  if (listing.fromEnvironment) return { environment: listingVariable(listing.site) };
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

/**
 * `/setup listing add site: [rotate:] [vote-hours:]`: the server's address for the list and what to
 * paste where. A secret the bot makes is made now and shown whole this once; Top.gg's own is pasted
 * through the button's form. A listing already there is shown as it is unless `rotate:true` asks for a
 * new secret; `vote-hours:` on it changes only its vote length.
 */
export async function addListing(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const guildId = interaction.guildId!;
  const i18n = translatorFor(interaction.locale);
  const site = siteOption(interaction);
  const voteLengthMs = voteHoursOption(interaction, site);
  webhookOn(ctx);
  if (single(ctx)) {
    if (voteLengthMs !== undefined)
      throw new UserFacingError('refusal.setByEnvironment', { variable: voteHoursVariable(site) });
    return environmentAnswer(ctx, guildId, site, i18n);
  }
  const rotate = interaction.options.getBoolean(setupName('rotate')) ?? false;
  let kept = state(ctx, guildId, site);
  const address = addressOf(ctx, guildId, site);
  const shown = { ...siteShown(site), steps: i18n.t(`setup.listing.steps.${site}`), i18n, ...noPublicUrl(ctx, i18n) };
  if (kept && !rotate) {
    if (voteLengthMs !== undefined) {
      await ctx.servers.listings.setVoteLength(guildId, site, voteLengthMs);
      ctx.logger.info({ guildId, userId: interaction.user.id, site, voteLengthMs }, 'listing vote length set');
      kept = state(ctx, guildId, site) ?? kept;
    }
    return listingView({ ...factsOf(ctx, guildId, kept, i18n), ...shown });
  }
  const fresh = { lastDeliveryAt: null, lastTestAt: null };
  if (SITE_FACTS[site].secretFrom === 'site')
    return listingView({
      ...shown,
      ...fresh,
      address,
      secret: { none: true },
      voteLength: voteLengthText({ site, voteLengthMs: null }, i18n),
    });
  if (!ctx.config.secrets) throw new UserFacingError('refusal.secretsKeyMissing');
  const secret = await sealing(() => ctx.servers.listings.add(guildId, site, undefined, voteLengthMs));
  ctx.logger.info(
    { guildId, userId: interaction.user.id, site, rotate, voteLengthMs },
    'listing secret made with /setup',
  );
  const made = state(ctx, guildId, site);
  return listingView({
    ...shown,
    ...fresh,
    address: withSecret(address, site, secret),
    secret: { whole: secret },
    voteLength: voteLengthText({ site, voteLengthMs: made?.voteLengthMs ?? null }, i18n),
  });
}

/** The "Paste the secret" button: the form, unless the secret cannot be kept. */
export async function openListingSecret(
  interaction: ButtonInteraction,
  site: AdaptedSiteId,
  ctx: BaseContext,
): Promise<void> {
  webhookOn(ctx);
  if (single(ctx)) throw new UserFacingError('refusal.setByEnvironment', { variable: listingVariable(site) });
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
  const guildId = interaction.guildId!;
  webhookOn(ctx);
  if (single(ctx)) throw new UserFacingError('refusal.setByEnvironment', { variable: listingVariable(site) });
  let typed: unknown;
  try {
    typed = interaction.fields.getTextInputValue(LISTING_SECRET_FIELD);
  } catch {
    // A forged submit may leave the field out: refused like an empty one.
  }
  const secret = readListingSecret(typed);
  if (!secret) throw new UserFacingError('refusal.listingSecretBad', { site: SITE_FACTS[site].name });
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  await sealing(() => ctx.servers.listings.add(guildId, site, secret));
  ctx.logger.info({ guildId, userId: interaction.user.id, site }, 'listing secret saved with /setup');
  const i18n = translatorFor(interaction.locale);
  const vars = { site: SITE_FACTS[site].name, last4: lastFour(secret), address: addressOf(ctx, guildId, site) };
  await interaction.editReply(setupAnswer('setup.listing.saved', vars, i18n));
}

/** `/setup listing remove site:` */
export async function removeListing(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const guildId = interaction.guildId!;
  const i18n = translatorFor(interaction.locale);
  const site = siteOption(interaction);
  webhookOn(ctx);
  if (single(ctx)) return environmentAnswer(ctx, guildId, site, i18n);
  const removed = await ctx.servers.listings.remove(guildId, site);
  const vars = { site: SITE_FACTS[site].name, command: '`/setup listing add`' };
  if (!removed) return setupAnswer('setup.listing.notListed', vars, i18n, 'info');
  ctx.logger.info({ guildId, userId: interaction.user.id, site }, 'listing removed with /setup');
  return setupAnswer('setup.listing.removed', vars, i18n);
}

/** `/setup listing list` */
export async function listListings(interaction: ChatInputCommandInteraction, ctx: BaseContext): Promise<MessageView> {
  const guildId = interaction.guildId!;
  webhookOn(ctx);
  const i18n = translatorFor(interaction.locale);
  const facts = ctx.servers.listings.of(guildId).map((listing) => factsOf(ctx, guildId, listing, i18n));
  return listingsView(facts, i18n);
}
