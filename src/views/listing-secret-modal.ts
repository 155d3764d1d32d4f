import { TextInputStyle } from 'discord-api-types/v10';
import { LabelBuilder, ModalBuilder, TextInputBuilder } from './components.js';
import { encodeCustomId, Prefix } from '../core/custom-id.js';
import { isListingSecret, LISTING_SECRET_MAX, LISTING_SECRET_MIN } from '../core/listing-secret.js';
import type { Translator } from '../i18n/index.js';

export const LISTING_SECRET_FIELD = 'secret';

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

/** The secret as typed, trimmed; null when missing or not what LISTING_<SITE>_SECRET would take either. */
export function readListingSecret(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return isListingSecret(trimmed) ? trimmed : null;
}
