import { MessageFlags, type ButtonInteraction, type ModalSubmitInteraction } from 'discord.js';
import type { BaseContext } from '../runtime/context.js';
import { UserFacingError } from '../bot/user-error.js';
import { translatorFor } from '../i18n/index.js';
import { listingSecretVariable, SITE_FACTS, type AdaptedSiteId } from '../lists/index.js';
import { lastFour } from '../secrets/secret-box.js';
import { listingSecretModal, LISTING_SECRET_FIELD, readListingSecret } from '../views/listing-secret-modal.js';
import { changeAnswer, changed, changeResult, commandTarget, type ApplyChange } from './change.js';
import { sealing } from './manage-server.js';
import { commandActor } from '../bot/actor.js';
import { addressOf, single, siteOf, webhookOn } from './listing-facts.js';
import type { ListingSiteInput } from './listing.js';

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

export const applyListingSecret: ApplyChange<ListingSecretInput> = async (ctx, target, input, actor) => {
  const { guildId } = target;
  const { site, secret } = secretFrom(ctx, input);
  await sealing(() => ctx.setup.changes.listings.add(guildId, site, secret));
  ctx.logger.info({ guildId, userId: actor.userId, site }, 'listing secret saved with /setup');
  const vars = { site: SITE_FACTS[site].name, last4: lastFour(secret), address: addressOf(ctx, guildId, site) };
  return changed(
    ctx,
    target,
    actor,
    changeResult('setup.listing.saved', () => vars),
  );
};

function secretFrom(ctx: BaseContext, input: ListingSecretInput): { site: AdaptedSiteId; secret: string } {
  const site = siteOf(input.site);
  webhookOn(ctx);
  if (single(ctx)) throw new UserFacingError('refusal.setByEnvironment', { variable: listingSecretVariable(site) });
  const secret = readListingSecret(input.secret);
  if (!secret) throw new UserFacingError('refusal.listingSecretBad', { site: SITE_FACTS[site].name });
  return { site, secret };
}
