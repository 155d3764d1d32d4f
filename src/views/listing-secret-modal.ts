import { LabelBuilder, ModalBuilder, TextInputBuilder, TextInputStyle } from 'discord.js';
import { encodeCustomId, Prefix } from '../core/custom-id.js';
import type { Translator } from '../i18n/index.js';

export const LISTING_SECRET_FIELD = 'secret';

/** Shortest secret taken: Top.gg's are far longer; a legacy one this short is guessable. */
export const LISTING_SECRET_MIN = 8;
/** Longest secret taken: far above any real one, low enough to refuse junk. */
export const LISTING_SECRET_MAX = 200;

/**
 * The secret a list makes itself (Top.gg's `whs_…`), or a legacy Top.gg secret the admin typed
 * there: the form takes either, and the secret's own form tells the receiver which one it checks.
 */
export function listingSecretModal(site: { id: string; name: string }, { t }: Translator): ModalBuilder {
  const input = new TextInputBuilder()
    .setCustomId(LISTING_SECRET_FIELD)
    .setStyle(TextInputStyle.Short)
    .setRequired(true)
    .setMinLength(LISTING_SECRET_MIN)
    .setMaxLength(LISTING_SECRET_MAX);
  return new ModalBuilder()
    .setCustomId(encodeCustomId(Prefix.setupListingSecret, site.id))
    .setTitle(t('setup.listing.modalTitle', { site: site.name }))
    .addLabelComponents(new LabelBuilder().setLabel(t('setup.listing.secretLabel')).setTextInputComponent(input));
}

/** The secret as typed, trimmed; null when missing, too short or long, or holding spaces. */
export function readListingSecret(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  const fits = trimmed.length >= LISTING_SECRET_MIN && trimmed.length <= LISTING_SECRET_MAX;
  return fits && !/\s/.test(trimmed) ? trimmed : null;
}
