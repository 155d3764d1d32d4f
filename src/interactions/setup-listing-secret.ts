import type { ModalHandler } from '../runtime/context.js';
import { Prefix } from '../core/custom-id.js';
import type { AdaptedSiteId } from '../lists/index.js';
import { saveListingSecret } from '../setup/listing-secret.js';
import { listingSiteStep } from './setup-listing.js';

/** The list's secret sent back: Manage Server checked again, as a submit can be forged. */
export const setupListingSecret: ModalHandler<AdaptedSiteId> = {
  kind: 'modal',
  prefix: Prefix.setupListingSecret,
  ...listingSiteStep,
  run: (interaction, site, ctx) => saveListingSecret(interaction, site, ctx),
};
